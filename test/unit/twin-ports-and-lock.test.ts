// The twin's start-up guards on their own: ports named when taken or given twice, and the --persist
// lock (held by a live pid, taken over from a dead one, released by its owner only).
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

  it('refuses a directory a live process holds, naming it, until it is released', () => {
    // Arrange
    const release = lockPersistDir(dir, 'the twin with its API on port 3000');

    // Act
    const second = () => lockPersistDir(dir, 'another');
    const refusal = (() => {
      try {
        second();
        return '';
      } catch (error) {
        return (error as Error).message;
      }
    })();
    release();

    // Assert
    expect(refusal).toContain(`--persist ${dir} is in use by another running twin (pid ${process.pid}, the twin with its API on port 3000`);
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    lockPersistDir(dir, 'after release')();
  });

  it('takes over the lock of a process that is gone, and of an unreadable lock file', () => {
    // Arrange: a pid above the kernel's maximum cannot be running.
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: 2 ** 30, holder: 'dead', started_at: '2025-01-01T00:00:00.000Z' }));

    // Act
    const release = lockPersistDir(dir, 'new owner');
    const owner = JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'));
    release();
    writeFileSync(join(dir, LOCK_FILE), '{"pid":');
    const releaseAgain = lockPersistDir(dir, 'after a torn write');

    // Assert
    expect(owner).toMatchObject({ pid: process.pid, holder: 'new owner' });
    releaseAgain();
  });
});
