// The twin's ports are checked before anything starts, so a taken port is reported at once and by
// name (which server, which option) instead of as a bare EADDRINUSE seconds into the start, with an
// option value that is free at that moment.
import { createServer } from 'node:net';

export interface NamedPort {
  port: number;
  host: string;
  /** The server and the option that sets its port, e.g. "platform simulator, --platform-port". */
  label: string;
  /**
   * What to suggest when the port is taken: the option to change and how many consecutive ports from its
   * value must be free (`--port` 3: the API and the ports derived from it, N+1 and N+2), and the value it
   * has now; without it, no suggestion.
   */
  suggest?: { option: string; count: number; from: number };
}

/** A port the twin needs cannot be used; the message names the server and the option. */
export class PortUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PortUnavailableError';
  }
}

export function portInUseMessage(named: NamedPort, code = 'EADDRINUSE'): string {
  if (code === 'EACCES') return `port ${named.port} (${named.label}) is not allowed for this user (ports below 1024 need privileges)`;
  if (code === 'EADDRNOTAVAIL') return `port ${named.port} (${named.label}): address ${named.host} is not available on this machine`;
  return `port ${named.port} (${named.label}) is in use`;
}

function tryListen(named: NamedPort): Promise<string | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'EADDRINUSE'));
    server.listen({ port: named.port, host: named.host, exclusive: true }, () => server.close(() => resolve(null)));
  });
}

/**
 * Fails with every problem at once: the same port given twice, or a port another process holds.
 * Port 0 (any free port) is never checked.
 */
export async function assertPortsAvailable(ports: NamedPort[]): Promise<void> {
  const fixed = ports.filter((named) => named.port !== 0);
  const problems: string[] = [];
  const seen = new Map<number, NamedPort>();
  for (const named of fixed) {
    const first = seen.get(named.port);
    if (first) problems.push(`port ${named.port} is used twice (${first.label}; ${named.label})`);
    else seen.set(named.port, named);
  }
  const codes = await Promise.all([...seen.values()].map(tryListen));
  const suggestions = new Map<string, Promise<string>>();
  const lines = [...seen.values()].map(async (named, i) => {
    const code = codes[i];
    if (!code) return null;
    const message = portInUseMessage(named, code);
    if (code !== 'EADDRINUSE' || !named.suggest) return message;
    const { option, count, from } = named.suggest;
    // One suggestion per option, however many of its ports are taken.
    if (!suggestions.has(option)) suggestions.set(option, suggestFree(option, count, from));
    return `${message}${await suggestions.get(option)!}`;
  });
  for (const line of await Promise.all(lines)) if (line) problems.push(line);
  if (problems.length > 0) throw new PortUnavailableError(problems.join('\n'));
}

/** How far above the option's value a free run is looked for. */
const SUGGESTION_RANGE = 200;

/**
 * `; try --port N (free now, with N+1 and N+2)`: the first value above `from` whose `count` consecutive
 * ports can all be listened on at this moment (on every interface, as DynamoDB Local listens); empty when
 * none is near.
 */
export async function suggestFree(option: string, count: number, from: number): Promise<string> {
  for (let base = from + 1; base + count - 1 <= Math.min(65535, from + SUGGESTION_RANGE); base += 1) {
    const run = Array.from({ length: count }, (_, i) => base + i);
    const codes = await Promise.all(run.map((port) => tryListen({ port, host: '0.0.0.0', label: '' })));
    if (codes.every((code) => code === null)) {
      const rest = run.slice(1);
      const others =
        rest.length === 0 ? '' : `, with ${rest.slice(0, -1).join(', ')}${rest.length > 1 ? ' and ' : ''}${rest[rest.length - 1]}`;
      return `; try ${option} ${base} (free now${others})`;
    }
  }
  return '';
}

/** A listen failure of a server started after the check (another process was quicker), named the same way. */
export function namePortError(error: unknown, named: NamedPort): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL')
    return new PortUnavailableError(portInUseMessage(named, code));
  return error;
}
