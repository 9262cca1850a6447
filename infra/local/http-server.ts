// HTTP plumbing of the twin's two servers (the local API gateway and the platform simulator): bounded
// request bodies, JSON answers, and starting and stopping a server on a port.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** What the twin's own servers (the platform simulator, the control endpoints) read of a body: 1 MiB, more than any of them needs. */
export const MAX_BODY_BYTES = 1024 * 1024;

export class BodyTooLarge extends Error {
  constructor(readonly limit: number = MAX_BODY_BYTES) {
    super(`Request body exceeds ${limit / 1024 / 1024} MiB`);
    this.name = 'BodyTooLarge';
  }
}

/**
 * The whole body as text ('' when there is none); BodyTooLarge past `limit`. The rest of an oversized body is
 * read and dropped first, so the refusal reaches a client that is still sending.
 */
export async function readBody(req: IncomingMessage, limit: number = MAX_BODY_BYTES): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size <= limit) chunks.push(chunk as Buffer);
  }
  if (size > limit) throw new BodyTooLarge(limit);
  return Buffer.concat(chunks).toString('utf8');
}

/** A JSON answer; a string body is sent as it is. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

/**
 * Whether a request's Host names this server itself: a loopback name (`127.0.0.1`, `localhost`, `[::1]`) with the
 * port it listens on. A page of another site whose name an attacker points at 127.0.0.1 (DNS rebinding) reaches
 * the twin with its own name in Host: the control endpoints (`/_…`) refuse it.
 */
export function isOwnHost(host: string | undefined, port: number): boolean {
  if (host === undefined) return false;
  const match = /^(127\.0\.0\.1|localhost|\[::1\]):(\d+)$/i.exec(host.trim());
  return match !== null && Number(match[2]) === port;
}

/** A control endpoint's path: the twin's and the simulator's own, never an API or storefront path. */
export const isControlPath = (url: string | undefined): boolean => (url ?? '/').startsWith('/_');

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => Promise<unknown>;

export interface RunningServer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * Listens on host:port (0: any free port). An error the handler did not answer itself goes to
 * `onError`, which answers it if the response has not started; otherwise the response is ended.
 */
export async function listen(
  handler: RequestHandler,
  port: number,
  host: string,
  onError: (error: unknown, res: ServerResponse) => void,
): Promise<RunningServer> {
  let boundPort = port;
  const server: Server = createServer((req, res) => {
    // The control endpoints answer this machine's own names only (isOwnHost): never a rebound foreign name.
    if (isControlPath(req.url) && !isOwnHost(req.headers.host, boundPort)) {
      req.resume();
      return sendJson(res, 403, { error: `Control endpoints answer only at 127.0.0.1:${boundPort} or localhost:${boundPort}` });
    }
    handler(req, res).catch((error: unknown) => {
      if (res.headersSent || res.destroyed) return void res.end();
      onError(error, res);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  boundPort = typeof address === 'object' && address ? address.port : port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${boundPort}`,
    port: boundPort,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
