// The JSON body of a write endpoint: an absent or blank body is refused plainly, then middy's parser reads
// whatever Content-Type the caller sent (a JSON body sent as text/plain, or curl's default form type, is
// still answered on its merits), and a body that is not JSON is a 400, never a 415 or a 500.
import type middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { badRequest, DETAILS } from '../errors';

type Middleware = middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult>;

// (`disableContentTypeCheck` exists in the package's code but not in its 6.x type declarations.)
const BODY_PARSER_OPTIONS = { disableContentTypeCheck: true } as Parameters<typeof httpJsonBodyParser>[0];

/** An absent or blank body is not JSON; say so plainly instead of letting the parser guess. */
const requireBody = (): Middleware => ({
  before: async (request) => {
    const body = request.event.body;
    if (body === null || body === undefined || (typeof body === 'string' && body.trim() === '')) {
      throw badRequest('Request body must be a JSON object');
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
