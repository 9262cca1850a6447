// The platform simulator's HTTP conventions on top of the twin's shared plumbing (http-server.ts): 400s
// and 404s as `{ error }` for bad control input, JSON bodies read with zod, so each handler module only
// says what its endpoints do.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import { BodyTooLarge, listen, readBody, sendJson, type RequestHandler, type RunningServer } from '../http-server';

/** Bad control input: answered 400 with `{ error }`. */
export class BadRequest extends Error {}

/** A control call about something the simulator does not have: answered 404 with `{ error }`. */
export class NotFound extends Error {}

export function methodNotAllowed(res: ServerResponse, allow: string): void {
  sendJson(res, 405, { error: 'Method Not Allowed' }, { Allow: allow });
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
  const problems = parsed.error.issues.map((issue) => `${issue.path.length ? issue.path.join('.') : 'body'}: ${issue.message}`).join('; ');
  throw new BadRequest(`${what}: ${problems}`);
}

/** Listens; a handler's BadRequest (or an oversized body) becomes 400, NotFound 404, anything else a 500 that names it. */
export function serve(handler: RequestHandler, port: number, host: string): Promise<RunningServer> {
  return listen(handler, port, host, (error, res) => {
    if (error instanceof BadRequest || error instanceof BodyTooLarge) return sendJson(res, 400, { error: error.message });
    if (error instanceof NotFound) return sendJson(res, 404, { error: error.message });
    sendJson(res, 500, { error: `Platform simulator failed: ${String(error)}` });
  });
}
