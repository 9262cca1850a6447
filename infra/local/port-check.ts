// The twin's ports are checked before anything starts, so a taken port is reported at once and by
// name (which server, which option) instead of as a bare EADDRINUSE seconds into the start.
import { createServer } from 'node:net';

export interface NamedPort {
  port: number;
  host: string;
  /** The server and the option that sets its port, e.g. "platform simulator, --platform-port". */
  label: string;
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
  [...seen.values()].forEach((named, i) => {
    const code = codes[i];
    if (code) problems.push(portInUseMessage(named, code));
  });
  if (problems.length > 0) throw new PortUnavailableError(problems.join('\n'));
}

/** A listen failure of a server started after the check (another process was quicker), named the same way. */
export function namePortError(error: unknown, named: NamedPort): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL')
    return new PortUnavailableError(portInUseMessage(named, code));
  return error;
}
