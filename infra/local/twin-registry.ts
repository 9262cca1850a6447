// The twins running on this machine, one small file each in the system's temporary directory, so that
// the operator CLI, pointed at a twin's DynamoDB and table, finds the twins serving that table and
// flushes their authorizer caches after a key write, as it flushes the stage's cache in the cloud, and
// matches an import's customers through their platform simulator with the shops' credentials of their file.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RunningTwin {
  pid: number;
  /** The twin's API, where its control endpoints are. */
  url: string;
  dynamodbEndpoint: string;
  tableName: string;
  /** Its platform simulator (absent in the files of twins started before it was registered). */
  platformUrl?: string;
  /**
   * The absolute path of the configuration file it was started with, which holds its shops' Shopify
   * credentials (the file's name only, never a secret); absent for a twin started from a configuration in memory.
   */
  configFile?: string;
}

/** The directory of the registrations (one file per twin: `<pid>-<API port>.json`). */
export function twinRegistryDir(): string {
  return process.env.LOYALTY_TWIN_REGISTRY ?? join(tmpdir(), 'loyalty-twins');
}

/** One spelling per endpoint: `localhost` and `[::1]` are the loopback 127.0.0.1, no trailing slash. */
export function sameEndpoint(endpoint: string): string {
  try {
    const url = new URL(endpoint);
    if (url.hostname === 'localhost' || url.hostname === '[::1]') url.hostname = '127.0.0.1';
    return `${url.protocol}//${url.host}`;
  } catch {
    return endpoint;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Registers a running twin; the function returned removes the registration (at the twin's stop). */
export function registerTwin(twin: Omit<RunningTwin, 'pid'>): () => void {
  const dir = twinRegistryDir();
  const file = join(dir, `${process.pid}-${new URL(twin.url).port}.json`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, JSON.stringify({ ...twin, pid: process.pid }));
  return () => rmSync(file, { force: true });
}

/** The live twins serving this table at this DynamoDB endpoint (a twin that died without its stop is left out, its file removed). */
export function runningTwins(dynamodbEndpoint: string, tableName: string): RunningTwin[] {
  let files: string[];
  try {
    files = readdirSync(twinRegistryDir()).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
  const wanted = sameEndpoint(dynamodbEndpoint);
  const twins: RunningTwin[] = [];
  for (const name of files) {
    try {
      const file = join(twinRegistryDir(), name);
      const twin = JSON.parse(readFileSync(file, 'utf8')) as RunningTwin;
      // A twin killed without its stop left its file: removed here, so the directory does not grow.
      if (!alive(twin.pid)) rmSync(file, { force: true });
      else if (sameEndpoint(twin.dynamodbEndpoint) === wanted && twin.tableName === tableName) twins.push(twin);
    } catch {
      // A file being written or removed right now: not a twin to flush.
    }
  }
  return twins;
}
