// Runs the project's npm commands as a user does (child processes), and looks for what they leave
// behind: open ports and Java processes of that twin only (other DynamoDB Locals run on this machine).
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { assertPortsAvailable } from '../../infra/local/port-check';

export const ROOT = join(__dirname, '..', '..');

export interface NpmProcess {
  child: ChildProcess;
  pid: number;
  output(): string;
  /** Resolves with the exit code (128 + signal number when killed by a signal). */
  exited: Promise<number>;
  /** Resolves once the output contains `text`; rejects if the process exits first. */
  waitFor(text: string | RegExp): Promise<string>;
}

const SIGNALS: Record<string, number> = { SIGINT: 2, SIGKILL: 9, SIGTERM: 15, SIGHUP: 1 };

/** `npm ARGS...` in the project, in its own process group so a test's cleanup can end all of it. */
export function runNpm(args: string[], env: NodeJS.ProcessEnv = {}): NpmProcess {
  const child = spawn('npm', args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let text = '';
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer) => {
    text += String(chunk);
    for (const listener of listeners) listener();
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  const exited = new Promise<number>((resolve) => {
    child.on('exit', (code, signal) => resolve(code ?? 128 + (SIGNALS[signal ?? ''] ?? 0)));
  });
  const waitFor = (pattern: string | RegExp) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        if (typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text)) {
          listeners.delete(check);
          resolve(text);
        }
      };
      listeners.add(check);
      check();
      void exited.then((code) => {
        listeners.delete(check);
        reject(new Error(`npm ${args.join(' ')} exited (${code}) before printing ${pattern}:\n${text}`));
      });
    });
  return { child, pid: child.pid!, output: () => text, exited, waitFor };
}

/** Ends a process group that a failed test left running (nothing to do when it is gone). */
export function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** `count` consecutive free ports (the twin's defaults are --port, +1, +2). */
export async function freePortRun(count: number): Promise<number> {
  for (;;) {
    const base = 20_000 + Math.floor(Math.random() * 40_000);
    const ports = Array.from({ length: count }, (_, i) => ({ port: base + i, host: '0.0.0.0', label: `port ${i}` }));
    try {
      await assertPortsAvailable(ports);
      return base;
    } catch {
      // taken: try another run
    }
  }
}

/** Whether anything accepts a TCP connection on the loopback port. */
export function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Java processes whose command line holds one of the markers (this twin's DynamoDB port or data directory). */
export function javaProcessesWith(markers: string[]): Array<{ pid: number; args: string[] }> {
  const found: Array<{ pid: number; args: string[] }> = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let args: string[];
    try {
      args = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').filter(Boolean);
    } catch {
      continue;
    }
    if (!/(^|\/)java$/.test(args[0] ?? '')) continue;
    const holds = markers.some((marker) => args.some((arg, i) => arg === marker || (arg === '-port' && args[i + 1] === marker)));
    if (holds) found.push({ pid: Number(name), args });
  }
  return found;
}

/** Polls until `condition` holds or `ms` pass; returns its last value (no fixed sleeps in the tests). */
export async function eventually<T>(read: () => T | Promise<T>, condition: (value: T) => boolean, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (condition(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Whether a process with this pid exists. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
