// `npm start`'s edges before the ready line. Ctrl-C stops what has started and exits 0 with a line
// saying it stopped before it was ready (docs/local-twin.md), not 130 without a word: the twin is held
// mid-start deterministically, its DynamoDB endpoint being this test's server, which keeps the first
// request until the twin has taken the signal, then refuses every request. A bad configuration file is
// located by line and column; a busy port suggests a free value of its option.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { answers, eventually, freePortRun, killGroup, runNpm, type NpmProcess } from '../support/twin-process';

jest.setTimeout(60_000);

let dynamodb: Server;
let npm: NpmProcess | undefined;
const held: ServerResponse[] = [];
let refusing = false;
let firstRequest: () => void;
const requested = new Promise<void>((resolve) => (firstRequest = resolve));

/** A DynamoDB error the SDK does not retry. */
function refuse(res: ServerResponse): void {
  res.writeHead(400, { 'Content-Type': 'application/x-amz-json-1.0' });
  res.end(JSON.stringify({ __type: 'com.amazonaws.dynamodb.v20120810#AccessDeniedException', message: 'refused by the test' }));
}

beforeAll(async () => {
  dynamodb = createServer((req, res) => {
    req.resume();
    if (refusing) return refuse(res);
    held.push(res);
    firstRequest();
  });
  await new Promise<void>((resolve) => dynamodb.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  if (npm) killGroup(npm.pid);
  for (const res of held) res.destroy();
  await new Promise((resolve) => dynamodb.close(resolve));
});

describe('a signal before the twin is ready', () => {
  it('stops what has started and exits 0, saying it stopped before it was ready', async () => {
    // Arrange: the twin is starting, waiting on its first DynamoDB request.
    const base = await freePortRun(2);
    const endpoint = `http://127.0.0.1:${(dynamodb.address() as AddressInfo).port}`;
    npm = runNpm(['start', '--', '--port', String(base), '--dynamodb-endpoint', endpoint]);
    await requested;
    const simulatorUp = await answers(base + 1);

    // Act: Ctrl-C reaches npm, which forwards it; then the held request is refused, ending the start.
    process.kill(npm.pid, 'SIGINT');
    await npm.waitFor('SIGINT before the twin was ready: stopping what has started');
    refusing = true;
    for (const res of held.splice(0)) refuse(res);
    const code = await npm.exited;

    // Assert
    expect(simulatorUp).toBe(true);
    expect(code).toBe(0);
    expect(npm.output()).toContain('Stopped before the twin was ready.');
    expect(npm.output()).not.toContain('Loyalty API listening');
    expect(npm.output()).not.toContain('AccessDeniedException');
    expect(
      await eventually(
        () => answers(base + 1),
        (open) => !open,
      ),
    ).toBe(false);
  });
});

describe('a start refused before anything runs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'twin-start-edges-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('locates each problem of the configuration file by line and column', async () => {
    // Arrange: line 3 has a currency in lower case.
    const file = join(dir, 'shop.json');
    writeFileSync(
      file,
      '{\n  "shops": [\n    { "id": "s", "name": "S", "currency": "usd", "referral_base_url": "https://s.example/" }\n  ]\n}\n',
    );

    // Act
    const run = runNpm(['start', '--', '--config', file, '--port', '0']);
    const code = await run.exited;

    // Assert
    expect(code).toBe(1);
    expect(run.output()).toContain(`${file}:3:43: shops[0].currency: must be an ISO 4217 currency code such as "USD"`);
  });

  it('names a busy port’s option and suggests a value free at that moment', async () => {
    // Arrange
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as AddressInfo).port;

    // Act
    const run = runNpm(['start', '--', '--port', String(port)]);
    const code = await run.exited;
    busy.close();

    // Assert
    expect(code).toBe(1);
    const suggestion = new RegExp(
      `port ${port} \\(API, --port\\) is in use; try --port (\\d+) \\(free now, with (\\d+) and (\\d+)\\)`,
    ).exec(run.output());
    expect(suggestion).not.toBeNull();
    expect(Number(suggestion![1])).toBeGreaterThan(port);
  });
});
