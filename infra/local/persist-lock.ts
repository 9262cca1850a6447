// One live twin per `--persist` directory: two DynamoDB Locals on one database file corrupt it quietly.
// A lock file names the owner's pid; a lock whose pid is gone (kill -9, power cut) is taken over.
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const LOCK_FILE = 'twin.lock';

interface LockOwner {
  pid: number;
  /** What holds it, for the refusal message: e.g. "the twin, API http://127.0.0.1:3000". */
  holder: string;
  started_at: string;
}

/** The directory is held by another live process; the message says by whom and what to do. */
export class PersistDirInUseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PersistDirInUseError';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
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

/**
 * Takes the directory for this process (creating it) and returns the release function. Refuses when
 * the lock names a live process, this one included: one process, one twin per directory.
 */
export function lockPersistDir(dir: string, holder: string): () => void {
  const path = resolve(dir);
  mkdirSync(path, { recursive: true });
  const file = join(path, LOCK_FILE);
  const owner: LockOwner = { pid: process.pid, holder, started_at: new Date().toISOString() };
  for (let attempt = 0; ; attempt += 1) {
    let fd: number;
    try {
      fd = openSync(file, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const current = readOwner(file);
      if (current && isAlive(current.pid)) {
        throw new PersistDirInUseError(
          `--persist ${dir} is in use by another running twin (pid ${current.pid}, ${current.holder}, since ${current.started_at}). ` +
            `Stop that one first (kill -TERM ${current.pid}), or give another directory.`,
        );
      }
      if (attempt > 2) throw new PersistDirInUseError(`--persist ${dir}: could not take over the stale lock ${file}; remove it by hand`);
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
    return () => {
      if (readOwner(file)?.pid === process.pid) unlinkSync(file);
    };
  }
}
