// The JSON body of a write endpoint: an absent or blank body is refused plainly, then middy's parser reads
// whatever Content-Type the caller sent (a JSON body sent as text/plain, or curl's default form type, is
// still answered on its merits), and a body that is not JSON, or nested past MAX_JSON_DEPTH, is a 400, never a
// 415 or a 500. (The shopper routes ask for application/json themselves: shopper-handler.ts.)
import type middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { badRequest, DETAILS } from '../errors';

type Middleware = middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult>;

/**
 * The deepest JSON a request body may nest (objects and arrays): every body of the API is 2 or 3 deep. Deeper is
 * refused before anything parses or hashes it (an Idempotency-Key's canonical JSON recurses once per level).
 */
export const MAX_JSON_DEPTH = 32;

/** How deeply `text` nests objects and arrays, brackets inside strings not counted; stops counting past `limit`. */
export function jsonDepth(text: string, limit = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

// (`disableContentTypeCheck` exists in the package's code but not in its 6.x type declarations.)
const BODY_PARSER_OPTIONS = { disableContentTypeCheck: true } as Parameters<typeof httpJsonBodyParser>[0];

/** An absent or blank body is not JSON; say so plainly instead of letting the parser guess. */
const requireBody = (): Middleware => ({
  before: async (request) => {
    const body = request.event.body;
    if (body === null || body === undefined || (typeof body === 'string' && body.trim() === '')) {
      throw badRequest('Request body must be a JSON object');
    }
    if (typeof body === 'string' && jsonDepth(body, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
      throw badRequest(`Request body nests objects or arrays more than ${MAX_JSON_DEPTH} levels deep`);
    }
  },
  // The parser's own error (it names its package as the cause) becomes the edge's 400, before the envelope answers.
  onError: async (request) => {
    const cause = (request.error as { cause?: { package?: string } } | null)?.cause;
    if (cause?.package === '@middy/http-json-body-parser') request.error = badRequest(DETAILS.invalidJson);
  },
});

/** The body check and the parser, in that order; `event.body` is the parsed value after them. */
export const jsonBody = (): Middleware[] => [requireBody(), httpJsonBodyParser(BODY_PARSER_OPTIONS) as Middleware];
