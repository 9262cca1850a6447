// HTTP plumbing of the platform simulator: JSON answers, bounded bodies, 400s for bad input, and starting and
// stopping the server, so each handler module only says what its endpoints do.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { z } from 'zod';

const MAX_BODY_BYTES = 1024 * 1024;

/** Bad control input: answered 400 with `{ error }`. */
export class BadRequest extends Error {}

/** A control call about something the simulator does not have: answered 404 with `{ error }`. */
export class NotFound extends Error {}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

export function methodNotAllowed(res: ServerResponse, allow: string): void {
  res.setHeader('Allow', allow);
  sendJson(res, 405, { error: 'Method Not Allowed' });
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BadRequest('Request body exceeds 1 MiB');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The body as JSON; an empty body is `{}` so that bodiless control calls need no `{}`. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const text = await readBody(req);
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new BadRequest('Body is not valid JSON');
  }
}

/** Parses with a zod schema; every problem is named in one 400 message, prefixed with what was being read. */
export function parseWith<S extends z.ZodType>(schema: S, body: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues
    .map((issue) => `${issue.path.length ? issue.path.join('.') : 'body'}: ${issue.message}`)
    .join('; ');
  throw new BadRequest(`${what}: ${problems}`);
}

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export interface RunningServer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** Listens; a handler's BadRequest or NotFound becomes 400 or 404, anything else a 500 that names it. */
export async function serve(handler: RequestHandler, port: number, host: string): Promise<RunningServer> {
  const server: Server = createServer((req, res) => {
    handler(req, res).catch((error: unknown) => {
      if (res.headersSent || res.destroyed) return void res.end();
      if (error instanceof BadRequest) return sendJson(res, 400, { error: error.message });
      if (error instanceof NotFound) return sendJson(res, 404, { error: error.message });
      sendJson(res, 500, { error: `Platform simulator failed: ${String(error)}` });
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
  const boundPort = typeof address === 'object' && address ? address.port : port;
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
