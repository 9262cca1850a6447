// The endpoint step on its own: the endpoint's function gets the caller, the body and decoded path
// parameters, runs within the invocation's deadline and, on idempotent routes only, under the
// Idempotency-Key; its result is answered as JSON.
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { callerFrom } from '../../../shared/http/middleware/caller';
import { endpoint, type HttpRequest, type HttpResult, jsonResponse } from '../../../shared/http/middleware/endpoint';
import { decodePathParameter } from '../../../shared/http/middleware/path-parameters';
import { invocationRemainingMs } from '../../../shared/runtime/invocation';
import { fakeContext, fakeEvent, withAuthorizer } from '../../support/lambda-fakes';

function handlerFor(run: (request: HttpRequest) => Promise<HttpResult>, options: { idempotent?: boolean } = {}) {
  return middy<APIGatewayProxyEvent, APIGatewayProxyResult>().handler(endpoint(run, options));
}

describe('the endpoint step', () => {
  it("hands the endpoint's function the caller, the body and the decoded path, and answers its result as JSON", async () => {
    let seen: { request: HttpRequest; identifier: string; missing: string } | undefined;
    const event = withAuthorizer(fakeEvent({ body: { points: 5 } as unknown as string }), { shopId: 'shop-a', scope: 'read' });
    const response = await handlerFor(async (request) => {
      seen = { request, identifier: request.path('identifier'), missing: request.path('id') };
      return { statusCode: 200, body: { ok: true } };
    })(event, fakeContext());

    expect(response).toEqual({
      statusCode: 200,
      headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
      body: '{"ok":true}',
    });
    expect(seen!.request.caller).toEqual({ shopId: 'shop-a', scope: 'read' });
    expect(seen!.request.body).toEqual({ points: 5 });
    expect(seen!.request.event).toBe(event);
    expect(seen!.request).not.toHaveProperty('idempotency');
    expect(seen!.identifier).toBe('ada.lovelace@example.com');
    expect(seen!.missing).toBe('');
  });

  it("runs the function within the invocation's deadline, taken from the context's remaining time", async () => {
    let remaining: number | undefined;
    await handlerFor(async () => {
      remaining = invocationRemainingMs();
      return { statusCode: 204, body: null };
    })(fakeEvent(), fakeContext(5000));

    expect(remaining).toBeGreaterThan(4000);
    expect(remaining).toBeLessThanOrEqual(5000);
    expect(invocationRemainingMs()).toBeUndefined();
  });

  it('honours the Idempotency-Key header only on idempotent routes', async () => {
    const run = jest.fn(async () => ({ statusCode: 201, body: {} }));
    const badKey = fakeEvent({ httpMethod: 'POST', headers: { 'Idempotency-Key': '' }, body: '{}' });

    await expect(handlerFor(run, { idempotent: true })(badKey, fakeContext())).rejects.toMatchObject({ statusCode: 400 });
    expect(run).not.toHaveBeenCalled();
    expect((await handlerFor(run)(badKey, fakeContext())).statusCode).toBe(201);
  });

  it('refuses a request without the authorizer context with 401 before the function runs', async () => {
    const run = jest.fn(async () => ({ statusCode: 200, body: {} }));

    await expect(handlerFor(run)(withAuthorizer(fakeEvent(), undefined), fakeContext())).rejects.toMatchObject({ statusCode: 401 });
    expect(run).not.toHaveBeenCalled();
  });
});

describe('the caller, path parameters and JSON answers', () => {
  it("reads the caller from the authorizer's context, refusing a missing shop or an unknown scope", () => {
    // The key is who its writes are recorded as made by: its id, and its name when the authorizer gives it.
    expect(callerFrom(fakeEvent())).toEqual({ shopId: 'shop-a', scope: 'full', keyActor: { type: 'api_key', id: 'abcd1234', name: '' } });
    expect(callerFrom(withAuthorizer(fakeEvent(), { shopId: 'shop-a', scope: 'read', keyId: 'k1', keyName: 'Backend' }))).toEqual({
      shopId: 'shop-a',
      scope: 'read',
      keyActor: { type: 'api_key', id: 'k1', name: 'Backend' },
    });
    expect(callerFrom(withAuthorizer(fakeEvent(), { shopId: 'shop-a', scope: 'full' }))).toEqual({ shopId: 'shop-a', scope: 'full' });
    for (const authorizer of [{ scope: 'full' }, { shopId: 'shop-a', scope: 'admin' }, { shopId: 7, scope: 'read' }]) {
      expect(() => callerFrom(withAuthorizer(fakeEvent(), authorizer))).toThrow('Invalid or revoked API key');
    }
  });

  it('decodes a percent-encoded path parameter once, and refuses one that does not decode with 400', () => {
    expect(decodePathParameter('ada.lovelace%40example.com')).toBe('ada.lovelace@example.com');
    expect(decodePathParameter('ada+tag@example.com')).toBe('ada+tag@example.com');
    expect(decodePathParameter('a%252Fb')).toBe('a%2Fb');
    const refusal = (value: string) => {
      try {
        decodePathParameter(value);
      } catch (error) {
        return (error as { statusCode?: number }).statusCode;
      }
      return undefined;
    };
    expect(refusal('100%')).toBe(400);
    expect(refusal('%E0%A4%A')).toBe(400);
  });

  it('answers JSON with its Content-Type', () => {
    expect(jsonResponse(201, { a: [1] })).toEqual({
      statusCode: 201,
      headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
      body: '{"a":[1]}',
    });
  });
});
