// The Idempotency-Key step on its own, its records kept in memory instead of the table: the first request
// runs and its answer is stored, a retry gets it replayed, a reused key is refused, a request still
// running is answered 409, and a failure of ours (5XX) frees the key for another try.
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { Claim, OnceKey, OnceOutcome, Settled } from '../../../shared/data/claims';
import type { IdempotencyClaim } from '../../../shared/data/idempotency-repository';
import { badRequest } from '../../../shared/http/errors';
import { requestHash } from '../../../shared/http/idempotency';
import { withIdempotency } from '../../../shared/http/middleware/idempotency';
import { fakeContext, fakeEvent } from '../../support/lambda-fakes';

/** Claims kept in memory by record key: the request's hash, and the answer once finished. */
const mockRecords = new Map<string, { fingerprint?: string; answer?: unknown }>();
const mockLeases: number[] = [];
const mockReleased: string[] = [];

jest.mock('../../../shared/data/claims', () => ({
  once: async (
    key: OnceKey<unknown>,
    leaseMs: number,
    work: (claim: Claim) => Promise<Settled<unknown, unknown>>,
  ): Promise<OnceOutcome<unknown, unknown>> => {
    mockLeases.push(leaseMs);
    const id = key.key.pk;
    const existing = mockRecords.get(id);
    if (existing?.fingerprint !== undefined && existing.fingerprint !== key.fingerprint) return { ran: false, refused: 'other_work' };
    if (existing)
      return existing.answer === undefined
        ? { ran: false, refused: 'in_progress' }
        : { ran: false, refused: 'finished', answer: existing.answer };
    mockRecords.set(id, { fingerprint: key.fingerprint });
    const release = () => (mockReleased.push(id), mockRecords.delete(id));
    let settled: Settled<unknown, unknown>;
    try {
      settled = await work({ key: key.key, claimId: id, fingerprint: key.fingerprint, resumed: null });
    } catch (error) {
      release();
      throw error;
    }
    if ('finish' in settled) mockRecords.set(id, { fingerprint: key.fingerprint, answer: settled.finish });
    else release();
    return { ran: true, result: settled.result };
  },
}));

beforeEach(() => {
  mockRecords.clear();
  mockLeases.length = 0;
  mockReleased.length = 0;
});

const BODY = { adjustment: 10 };
const adjust = (key: string | undefined, body: unknown = BODY) =>
  fakeEvent({
    httpMethod: 'POST',
    resource: '/v1/customers/{identifier}/points',
    pathParameters: { identifier: '1001' },
    headers: key === undefined ? {} : { 'Idempotency-Key': key },
    body: body as string,
  });

/** A minimal chain whose function runs `produce` under the request's Idempotency-Key, as the endpoint does. */
function handlerFor(produce: (claim?: IdempotencyClaim) => Promise<APIGatewayProxyResult>) {
  return middy<APIGatewayProxyEvent, APIGatewayProxyResult>().handler(async (event, context) =>
    withIdempotency('shop-a', event, event.body, context.getRemainingTimeInMillis(), produce),
  );
}

const created = jest.fn(async (_claim?: IdempotencyClaim) => ({ statusCode: 201, headers: {}, body: '{"points":10}' }));

describe("the request's hash", () => {
  it('is the same for a path parameter sent percent-encoded or not, and another for another value', () => {
    const withIdentifier = (identifier: string) => ({ ...adjust('k'), pathParameters: { identifier } });

    expect(requestHash(withIdentifier('ada%40example.com'), BODY)).toBe(requestHash(withIdentifier('ada@example.com'), BODY));
    expect(requestHash(withIdentifier('ada%2Btag%40example.com'), BODY)).toBe(requestHash(withIdentifier('ada+tag@example.com'), BODY));
    expect(requestHash(withIdentifier('ada%2540example.com'), BODY)).not.toBe(requestHash(withIdentifier('ada@example.com'), BODY));
  });
});

describe('the Idempotency-Key step', () => {
  beforeEach(() => created.mockClear());

  it('runs the request without a claim when no key is sent', async () => {
    const response = await handlerFor(created)(adjust(undefined), fakeContext());

    expect(response.statusCode).toBe(201);
    expect(created).toHaveBeenCalledWith();
    expect(mockLeases).toEqual([]);
  });

  it('refuses a key that is not 1 to 255 printable ASCII characters with 400', async () => {
    for (const key of ['', 'x'.repeat(256), 'caf\u00e9']) {
      await expect(handlerFor(created)(adjust(key), fakeContext())).rejects.toMatchObject({ statusCode: 400 });
    }
    expect(created).not.toHaveBeenCalled();
  });

  it('runs the first request under its claim, held as long as the invocation may run, and replays its answer to a retry', async () => {
    const first = await handlerFor(created)(adjust('k-1'), fakeContext(4000));
    const retry = await handlerFor(created)(adjust('k-1'), fakeContext());

    expect(created).toHaveBeenCalledTimes(1);
    expect(created.mock.calls[0]![0]).toMatchObject({ requestHash: requestHash(adjust('k-1'), BODY) });
    expect(mockLeases[0]).toBe(4000);
    expect(first).toMatchObject({ statusCode: 201, body: '{"points":10}' });
    expect(retry).toEqual({
      statusCode: 201,
      headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', 'Idempotency-Replayed': 'true' },
      body: '{"points":10}',
    });
  });

  it('refuses the same key with another request (422) and a retry while the first still runs (409)', async () => {
    await handlerFor(created)(adjust('k-2'), fakeContext());
    await expect(handlerFor(created)(adjust('k-2', { adjustment: 99 }), fakeContext())).rejects.toMatchObject({ statusCode: 422 });

    let retried: Promise<APIGatewayProxyResult> | undefined;
    const slow = async () => {
      retried = handlerFor(created)(adjust('k-3'), fakeContext());
      await expect(retried).rejects.toMatchObject({ statusCode: 409 });
      return { statusCode: 201, headers: {}, body: '{}' };
    };
    await handlerFor(slow)(adjust('k-3'), fakeContext());
    expect(retried).toBeDefined();
  });

  it("stores a refusal of the caller's request (4XX) and replays it like an answer", async () => {
    const refused = jest.fn(async () => {
      throw badRequest('adjustment must not be zero');
    });
    const first = await handlerFor(refused)(adjust('k-4'), fakeContext());
    const retry = await handlerFor(created)(adjust('k-4'), fakeContext());

    expect(first.statusCode).toBe(400);
    expect(JSON.parse(first.body).errors[0].detail).toBe('adjustment must not be zero');
    expect(retry).toMatchObject({ statusCode: 400, body: first.body, headers: { 'Idempotency-Replayed': 'true' } });
    expect(created).not.toHaveBeenCalled();
  });

  it('frees the key after a failure of ours, thrown or answered, so that a retry runs again', async () => {
    await expect(
      handlerFor(async () => {
        throw new Error('table busy');
      })(adjust('k-5'), fakeContext()),
    ).rejects.toThrow('table busy');
    const answered503 = await handlerFor(async () => ({ statusCode: 503, headers: {}, body: '{}' }))(adjust('k-6'), fakeContext());

    expect(answered503.statusCode).toBe(503);
    expect(mockReleased.map((pk) => pk.split('#').at(-1))).toEqual(['k-5', 'k-6']);
    expect((await handlerFor(created)(adjust('k-5'), fakeContext())).statusCode).toBe(201);
    expect(created).toHaveBeenCalledTimes(1);
  });
});
