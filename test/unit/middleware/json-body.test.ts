// The JSON body on its own: a blank body is refused plainly, any Content-Type is parsed, and a body that
// is not JSON becomes the edge's 400 before the error envelope answers.
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { ApiError } from '../../../shared/http/errors';
import { jsonBody } from '../../../shared/http/middleware/json-body';
import { fakeContext, fakeEvent } from '../../support/lambda-fakes';

const post = (body: string | null, headers: Record<string, string> = { 'Content-Type': 'application/json' }) =>
  fakeEvent({ httpMethod: 'POST', resource: '/v1/customers', pathParameters: null, body, headers });

/** The body the endpoint received, or the error the middlewares after jsonBody's onError saw. */
async function send(event: APIGatewayProxyEvent): Promise<{ body?: unknown; error?: unknown }> {
  let received: { body?: unknown; error?: unknown } = {};
  const handler = middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
    // Stands where the error envelope stands: its onError runs after jsonBody's.
    .use({
      onError: async (request) => {
        received = { error: request.error };
        request.response = { statusCode: 0, body: '' };
      },
    })
    .use(jsonBody())
    .handler(async (parsed) => {
      received = { body: parsed.body };
      return { statusCode: 200, body: '{}' };
    });
  await handler(event, fakeContext());
  return received;
}

describe('the JSON body middleware', () => {
  it('hands the endpoint the parsed body', async () => {
    expect(await send(post('{"email":"ada@example.com","points":5}'))).toEqual({ body: { email: 'ada@example.com', points: 5 } });
  });

  it.each([
    ['text/plain', { 'Content-Type': 'text/plain' }],
    ["curl's default form type", { 'Content-Type': 'application/x-www-form-urlencoded' }],
    ['no Content-Type', {}],
  ])('parses a JSON body sent as %s', async (_label, headers) => {
    expect(await send(post('{"a":1}', headers))).toEqual({ body: { a: 1 } });
  });

  it.each([
    ['absent', null],
    ['empty', ''],
    ['blank', '  \n '],
  ])('refuses an %s body with 400 before parsing', async (_label, body) => {
    const { error } = await send(post(body));

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ statusCode: 400, detail: 'Request body must be a JSON object' });
  });

  it('turns a body that is not JSON into a 400, never a 415 or a 500', async () => {
    const { error } = await send(post('{"x":'));

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ statusCode: 400, detail: 'Request body is not valid JSON' });
  });

  it('leaves other errors as they are', async () => {
    const boom = new Error('boom');
    let seen: unknown;
    const handler = middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
      .use({
        onError: async (request) => {
          seen = request.error;
          request.response = { statusCode: 0, body: '' };
        },
      })
      .use(jsonBody())
      .handler(async () => {
        throw boom;
      });
    await handler(post('{}'), fakeContext());

    expect(seen).toBe(boom);
  });
});
