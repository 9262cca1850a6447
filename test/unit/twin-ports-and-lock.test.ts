// The twin's start-up guards on their own: ports named when taken or given twice, and the --persist
// lock (held by a live pid, taken over from a dead one, a zombie or a reused pid, held while a gone twin's
// DynamoDB Local still stops, released by its owner only).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lockPersistDir, LOCK_FILE } from '../../infra/local/persist-lock';
import { assertPortsAvailable } from '../../infra/local/port-check';

/** A server on `port`, or null when something else has it already (the suggestion must then skip it anyway). */
function listenOn(port: number): Promise<Server | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(null));
    server.listen(port, '0.0.0.0', () => resolve(server));
  });
}

describe('port check', () => {
  let server: Server;
  let taken: number;
  beforeAll(async () => {
    server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    taken = (server.address() as AddressInfo).port;
  });
  afterAll(() => server.close());

  it('names the server and the option of a taken port', async () => {
    // Act
    const check = assertPortsAvailable([{ port: taken, host: '127.0.0.1', label: 'platform simulator, --platform-port' }]);

    // Assert
    await expect(check).rejects.toThrow(`port ${taken} (platform simulator, --platform-port) is in use`);
  });

  it('suggests a value of the option whose ports are all free at that moment', async () => {
    // Arrange: the two ports above the taken one are taken too, so the suggestion must skip them.
    const above = await Promise.all([taken + 1, taken + 2].map((port) => listenOn(port)));

    // Act
    const check = assertPortsAvailable([
      { port: taken, host: '127.0.0.1', label: 'API, --port', suggest: { option: '--port', count: 3, from: taken } },
    ]);

    // Assert
    const message = await check.then(
      () => '',
      (error: Error) => error.message,
    );
    const suggested = Number(/; try --port (\d+) \(free now, with (\d+) and (\d+)\)$/.exec(message)?.[1]);
    expect(message).toMatch(new RegExp(`^port ${taken} \\(API, --port\\) is in use; try --port \\d+ \\(free now, with \\d+ and \\d+\\)$`));
    expect(suggested).toBeGreaterThan(taken);
    for (const port of [suggested, suggested + 1, suggested + 2]) {
      expect(above.filter(Boolean).map((server) => (server!.address() as AddressInfo).port)).not.toContain(port);
      await expect(assertPortsAvailable([{ port, host: '0.0.0.0', label: 'check' }])).resolves.toBeUndefined();
    }
    for (const server of above) server?.close();
  });

  it('suggests a single free value for an option that sets one port', async () => {
    // Act
    const check = assertPortsAvailable([
      {
        port: taken,
        host: '127.0.0.1',
        label: 'DynamoDB Local, --dynamodb-port',
        suggest: { option: '--dynamodb-port', count: 1, from: taken },
      },
    ]);

    // Assert
    await expect(check).rejects.toThrow(new RegExp(`is in use; try --dynamodb-port \\d+ \\(free now\\)$`));
  });

  it('refuses one port given to two servers, and never checks port 0', async () => {
    // Act
    const check = assertPortsAvailable([
      { port: 0, host: '127.0.0.1', label: 'API, --port' },
      { port: 0, host: '127.0.0.1', label: 'platform simulator, --platform-port' },
      { port: 65000, host: '127.0.0.1', label: 'API, --port' },
      { port: 65000, host: '127.0.0.1', label: 'DynamoDB Local, --dynamodb-port' },
    ]);

    // Assert
    await expect(check).rejects.toThrow('port 65000 is used twice (API, --port; DynamoDB Local, --dynamodb-port)');
  });
});

describe('--persist lock', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lock-test-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a directory a live process holds, naming it, until it is released', async () => {
    // Arrange
    const lock = await lockPersistDir(dir, 'the twin with its API on port 3000');

    // Act
    const refusal = await lockPersistDir(dir, 'another').then(
      () => '',
      (error: Error) => error.message,
    );
    lock.release();

    // Assert
    expect(refusal).toContain(`--persist ${dir} is in use by another running twin (pid ${process.pid}, the twin with its API on port 3000`);
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    (await lockPersistDir(dir, 'after release')).release();
  });

  it('takes over the lock of a process that is gone, and of an unreadable lock file', async () => {
    // Arrange: a pid above the kernel's maximum cannot be running.
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: 2 ** 30, holder: 'dead', started_at: '2025-01-01T00:00:00.000Z' }));

    // Act
    const lock = await lockPersistDir(dir, 'new owner');
    const owner = JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'));
    lock.release();
    writeFileSync(join(dir, LOCK_FILE), '{"pid":');
    const again = await lockPersistDir(dir, 'after a torn write');

    // Assert
    expect(owner).toMatchObject({ pid: process.pid, holder: 'new owner' });
    again.release();
  });

  // After `kill -9` of `npm start`'s process group the twin is a zombie until someone reaps it, and in a container
  // whose first process reaps nothing it stays one: `kill(pid, 0)` still succeeds on it.
  it('takes over the lock of a zombie, a process that is gone but never reaped', async () => {
    // Arrange: `sleep 0` in the background of a shell that then becomes `sleep 30`, which never reaps it.
    const parent = spawn('sh', ['-c', 'sleep 0 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const zombie = Number((await once(parent.stdout!, 'data'))[0].toString().trim());
      await waitFor(() => readFileSync(`/proc/${zombie}/stat`, 'utf8').includes(') Z '));
      writeFileSync(
        join(dir, LOCK_FILE),
        JSON.stringify({ pid: zombie, holder: 'the killed twin', started_at: '2026-01-01T00:00:00.000Z' }),
      );

      // Act
      const lock = await lockPersistDir(dir, 'the restarted twin');

      // Assert
      expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid, holder: 'the restarted twin' });
      lock.release();
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it('takes over the lock of a pid now used by another program (its start time differs)', async () => {
    // Arrange: this very process, as if the twin that wrote the lock had had its pid before.
    writeFileSync(
      join(dir, LOCK_FILE),
      JSON.stringify({ pid: process.pid, start: '1', holder: 'an old twin', started_at: '2026-01-01T00:00:00.000Z' }),
    );

    // Act
    const lock = await lockPersistDir(dir, 'the new twin');

    // Assert
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'))).toMatchObject({ holder: 'the new twin' });
    lock.release();
  });

  it("waits for a gone twin's DynamoDB Local to finish stopping, and refuses one that does not", async () => {
    // Arrange: the twin is gone, its DynamoDB Local supervisor (here a sleep) still stops for a moment.
    const stopping = spawn('sleep', ['0.5'], { stdio: 'ignore' });
    const lockOf = (pid: number) =>
      JSON.stringify({ pid: 2 ** 30, holder: 'the killed twin', started_at: '2026-01-01T00:00:00.000Z', dynamodb: { pid } });
    writeFileSync(join(dir, LOCK_FILE), lockOf(stopping.pid!));

    // Act
    const lock = await lockPersistDir(dir, 'the restarted twin', 5_000);
    const stillRunning = spawn('sleep', ['30'], { stdio: 'ignore' });
    lock.recordDynamoDb(stillRunning.pid!);
    const recorded = JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'));
    writeFileSync(join(dir, LOCK_FILE), lockOf(stillRunning.pid!));
    const refusal = await lockPersistDir(dir, 'too soon', 300).then(
      () => '',
      (error: Error) => error.message,
    );
    stillRunning.kill('SIGKILL');

    // Assert
    expect(recorded.dynamodb.pid).toBe(stillRunning.pid);
    expect(refusal).toContain(`the DynamoDB Local of a twin that is gone (pid ${stillRunning.pid}) still runs on it`);
  });
});

/** Polls `check` until it holds (a process's state, read from /proc). */
async function waitFor(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setImmediate(resolve));
  }
}
