// One live twin per `--persist` directory: two DynamoDB Locals on one database file corrupt it quietly.
// A lock file names the owner's pid and, once started, its DynamoDB Local's supervisor. A lock is held while
// either lives. A process that is gone (kill -9, power cut), a zombie its dead parent never reaped, or a pid
// since reused by another program (its start time differs) holds nothing: the lock is taken over, after
// waiting a few seconds for a DynamoDB Local that is still stopping (its supervisor stops it when the twin dies).
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export const LOCK_FILE = 'twin.lock';

/** How long a new twin waits for a gone twin's DynamoDB Local to finish stopping (its supervisor kills it within 5 s). */
export const STOPPING_WAIT_MS = 10_000;

interface ProcessRef {
  pid: number;
  /** The process's start time (Linux: /proc/<pid>/stat's starttime), so a reused pid is not taken for it. */
  start?: string;
}

interface LockOwner extends ProcessRef {
  /** What holds it, for the refusal message: e.g. "the twin, API http://127.0.0.1:3000". */
  holder: string;
  started_at: string;
  /** The DynamoDB Local supervisor on this directory, once started. */
  dynamodb?: ProcessRef;
}

/** The directory is held by another live process; the message says by whom and what to do. */
export class PersistDirInUseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PersistDirInUseError';
  }
}

/** Linux's view of a process: its state letter and start time, or null when it does not exist. */
function procStat(pid: number): { state: string; start: string } | null | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ESRCH') {
      // No /proc at all (macOS): say nothing, the signal test decides.
      try {
        readFileSync('/proc/self/stat');
      } catch {
        return undefined;
      }
      return null;
    }
    return undefined;
  }
  // pid (comm) state ppid … : comm may hold spaces and parentheses, so split after its last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0]!, start: fields[19]! };
}

/** This process as a lock names it. */
function selfRef(pid: number = process.pid): ProcessRef {
  const stat = procStat(pid);
  return stat ? { pid, start: stat.start } : { pid };
}

/** Whether `ref` is a running process: not gone, not a zombie (nor dead), not a reused pid. */
export function isRunning(ref: ProcessRef): boolean {
  const stat = procStat(ref.pid);
  if (stat === null) return false;
  if (stat) {
    if (stat.state === 'Z' || stat.state === 'X' || stat.state === 'x') return false;
    if (ref.start !== undefined && ref.start !== stat.start) return false;
    return true;
  }
  try {
    process.kill(ref.pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOwner(file: string): LockOwner | null {
  try {
    const owner = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockOwner>;
    return Number.isInteger(owner.pid) ? (owner as LockOwner) : null;
  } catch {
    // Unreadable or half-written by a process that died while writing it: nobody holds it.
    return null;
  }
}

export interface PersistLock {
  /** Records the DynamoDB Local supervisor started on the directory: the lock is held while it lives too. */
  recordDynamoDb(pid: number): void;
  release(): void;
}

/**
 * Takes the directory for this process (creating it). Refuses when the lock names a running process, this one
 * included (one process, one twin per directory); waits up to `waitMs` for a gone twin's DynamoDB Local that is
 * still stopping.
 */
export async function lockPersistDir(dir: string, holder: string, waitMs: number = STOPPING_WAIT_MS): Promise<PersistLock> {
  const path = resolve(dir);
  mkdirSync(path, { recursive: true });
  const file = join(path, LOCK_FILE);
  const owner: LockOwner = { ...selfRef(), holder, started_at: new Date().toISOString() };
  const deadline = Date.now() + waitMs;
  for (let attempt = 0; ; attempt += 1) {
    let fd: number;
    try {
      fd = openSync(file, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const current = readOwner(file);
      if (current && isRunning(current)) {
        throw new PersistDirInUseError(
          `--persist ${dir} is in use by another running twin (pid ${current.pid}, ${current.holder}, since ${current.started_at}). ` +
            `Stop that one first (kill -TERM ${current.pid}), or give another directory.`,
        );
      }
      // The twin is gone; its DynamoDB Local may still be stopping on the same files.
      if (current?.dynamodb && isRunning(current.dynamodb)) {
        if (Date.now() < deadline) {
          await sleep(100);
          continue;
        }
        throw new PersistDirInUseError(
          `--persist ${dir}: the DynamoDB Local of a twin that is gone (pid ${current.dynamodb.pid}) still runs on it after ` +
            `${waitMs / 1000} s. Stop it (kill -TERM ${current.dynamodb.pid}), then start again.`,
        );
      }
      if (attempt > 2 + waitMs / 100) {
        throw new PersistDirInUseError(`--persist ${dir}: could not take over the stale lock ${file}; remove it by hand`);
      }
      // Stale: its owner is gone. Remove it and try again; a racing twin that wins gets refused above.
      try {
        unlinkSync(file);
      } catch {
        // Someone else removed it first.
      }
      continue;
    }
    writeSync(fd, `${JSON.stringify(owner)}\n`);
    closeSync(fd);
    const ours = () => {
      const now = readOwner(file);
      return now?.pid === owner.pid && now.start === owner.start;
    };
    return {
      recordDynamoDb: (pid) => {
        if (ours()) writeFileSync(file, `${JSON.stringify({ ...owner, dynamodb: selfRef(pid) })}\n`);
      },
      release: () => {
        if (ours()) unlinkSync(file);
      },
    };
  }
}
