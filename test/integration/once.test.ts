// `once(key, lease, work)` against DynamoDB Local: the work runs once per key, its answer is replayed, a claim
// held by a claimant that may still run refuses another attempt, an expired lease is taken over (with the
// progress its stopped claimant recorded), a failure gives the key back, and the items the table already
// holds (an Idempotency-Key's record, a handled webhook event) are read as they were written.
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { type Claim, type ClaimKind, claimProgress, once, type OnceKey, type Settled } from '../../shared/data/claims';
import { documentClient, tableName } from '../../shared/data/client';
import { commit } from '../../shared/data/commit';
import { requestClaim, requestOnce, type StoredResponse } from '../../shared/data/idempotency-repository';
import { webhookEventOnce } from '../../shared/data/webhook-event-repository';
import { now, setClock } from '../../shared/runtime/clock';
import { createTestTable, scanAll } from '../support/test-table';

let table: Awaited<ReturnType<typeof createTestTable>>;

beforeAll(async () => {
  table = await createTestTable();
});
afterAll(async () => {
  setClock(null);
  await table.drop();
});
afterEach(() => setClock(null));

/** A kind of claim with its own clock, which the test moves; it keeps no progress (a fresh claim replaces an expired one). */
let testTime = Date.parse('2026-03-01T10:00:00.000Z');
const testKind: ClaimKind<string> = {
  name: 'test claim',
  finished: 'done',
  leaseAttribute: 'lease_until',
  ttlSeconds: 3600,
  keepsProgress: false,
  clock: () => new Date(testTime),
  answer: { write: (answer) => ({ outcome: answer }), read: (item) => String(item.outcome) },
};
const testKey = (id: string, claimant?: string): OnceKey<string> => ({ kind: testKind, key: { pk: `TEST#${id}`, sk: 'CLAIM' }, claimant });

const finished = (answer: string) => async (): Promise<Settled<string, string>> => ({ finish: answer, result: answer });
const requestScope = (idempotencyKey: string) => ({ shopId: 'once', route: 'POST /v1/x', idempotencyKey });
const respond = (status: number) => async (): Promise<Settled<StoredResponse, number>> => ({
  finish: { status, body: `{"status":${status}}` },
  result: status,
});

/** Claims `key` and stops there, as an invocation that was stopped holding the claim; resolves with its claim. */
function claimedAndStopped<A>(key: OnceKey<A>, leaseMs: number, before?: (claim: Claim) => Promise<void>): Promise<Claim> {
  return new Promise<Claim>((claimed, failed) => {
    once(key, leaseMs, async (claim) => {
      await before?.(claim);
      claimed(claim);
      return new Promise<never>(() => undefined);
    }).catch(failed);
  });
}

const itemOf = async (pk: string) => (await scanAll()).find((item) => item.pk === pk);

describe('once', () => {
  it('runs the work once and replays its answer to every later attempt', async () => {
    const work = jest.fn(finished('applied'));

    const first = await once(testKey('replay'), 60_000, work);
    const again = await once(testKey('replay'), 60_000, work);

    expect(first).toEqual({ ran: true, result: 'applied' });
    expect(again).toEqual({ ran: false, refused: 'finished', answer: 'applied' });
    expect(work).toHaveBeenCalledTimes(1);
  });

  it('lets exactly one of several simultaneous attempts run; the others are told it is in progress', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const work = jest.fn(async (): Promise<Settled<string, string>> => {
      await gate;
      return { finish: 'applied', result: 'applied' };
    });

    // The gate opens once the seven attempts that did not win have their answer.
    let refusals = 0;
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, () =>
        once(testKey('concurrent'), 60_000, work).then((outcome) => {
          if (!outcome.ran && ++refusals === 7) open();
          return outcome;
        }),
      ),
    );

    expect(work).toHaveBeenCalledTimes(1);
    expect(outcomes.filter((outcome) => outcome.ran)).toHaveLength(1);
    expect(outcomes.filter((outcome) => !outcome.ran)).toEqual(Array(7).fill({ ran: false, refused: 'in_progress' }));
  });

  it("holds a stopped claimant's claim until its lease runs out, then lets the next attempt take it over", async () => {
    await claimedAndStopped(testKey('lease', 'first'), 10_000);

    const early = await once(testKey('lease', 'second'), 10_000, finished('second'));
    testTime += 10_001;
    const late = await once(testKey('lease', 'third'), 10_000, finished('third'));

    expect(early).toEqual({ ran: false, refused: 'in_progress' });
    expect(late).toEqual({ ran: true, result: 'third' });
    expect(await once(testKey('lease'), 10_000, finished('fourth'))).toEqual({ ran: false, refused: 'finished', answer: 'third' });
  });

  it('treats a claim found with the attempt’s own claimant id as its own (a retry of the same queue message)', async () => {
    await claimedAndStopped(testKey('own', 'message-1'), 60_000);

    expect(await once(testKey('own', 'message-2'), 60_000, finished('other'))).toEqual({ ran: false, refused: 'in_progress' });
    expect(await once(testKey('own', 'message-1'), 60_000, finished('retried'))).toEqual({ ran: true, result: 'retried' });
  });

  it('gives the key back when the work fails or releases it, so the next attempt runs', async () => {
    await expect(
      once(testKey('failed'), 60_000, async () => {
        throw new Error('platform down');
      }),
    ).rejects.toThrow('platform down');
    const released = await once(testKey('released'), 60_000, async () => ({ release: true as const, result: 'undone' }));

    expect(released).toEqual({ ran: true, result: 'undone' });
    expect(await itemOf('TEST#failed')).toBeUndefined();
    expect(await itemOf('TEST#released')).toBeUndefined();
    expect(await once(testKey('failed'), 60_000, finished('again'))).toEqual({ ran: true, result: 'again' });
  });

  it('refuses the key claimed for other work (another request hash), finished or not', async () => {
    await once(requestOnce(requestScope('bound'), 'hash-a'), 10_000, respond(201));

    expect(await once(requestOnce(requestScope('bound'), 'hash-b'), 10_000, respond(200))).toEqual({ ran: false, refused: 'other_work' });
    expect(await once(requestOnce(requestScope('bound'), 'hash-a'), 10_000, respond(200))).toEqual({
      ran: false,
      refused: 'finished',
      answer: { status: 201, body: '{"status":201}' },
    });
  });

  it('keeps a failed claim that recorded progress, expired, and hands the progress to the attempt that takes it over', async () => {
    setClock(new Date('2026-03-01T10:00:00.000Z'));
    const key = requestOnce(requestScope('progress'), 'hash-p');
    await expect(
      once(key, 10_000, async (claim) => {
        await commit([claimProgress(claim, { entry: 'entry-1' })]);
        throw new Error('stopped after the reservation');
      }),
    ).rejects.toThrow('stopped after the reservation');

    const resumed = jest.fn(async (claim: Claim) => ({ finish: { status: 201, body: '{}' }, result: claim.resumed }));
    const retry = await once(key, 10_000, resumed);

    expect(retry).toEqual({ ran: true, result: { entry: 'entry-1' } });
    expect(await itemOf(key.key.pk)).not.toHaveProperty('progress');
  });

  it("hands a stopped invocation's progress to exactly one of the retries after its lease, on the domain clock", async () => {
    setClock(new Date('2026-03-01T10:00:00.000Z'));
    const scope = requestScope('stopped');
    const key = requestOnce(scope, 'hash-s');
    const stopped = await claimedAndStopped(key, 10_000, async (claim) => {
      expect(requestClaim(scope, 'hash-s', claim).workId).toMatch(/^[0-9a-f-]{36}$/);
      await commit([claimProgress(claim, { entry: 'entry-2' })]);
    });

    expect(await once(key, 10_000, respond(201))).toEqual({ ran: false, refused: 'in_progress' });
    setClock(new Date(now().getTime() + 10_001));
    const work = jest.fn(async (claim: Claim) => ({ finish: { status: 201, body: '{}' }, result: claim.resumed }));
    const retries = await Promise.all(Array.from({ length: 5 }, () => once(key, 10_000, work)));

    expect(work).toHaveBeenCalledTimes(1);
    expect(retries.filter((retry) => retry.ran)).toEqual([{ ran: true, result: { entry: 'entry-2' } }]);
    // The stopped claimant can no longer record progress: the claim is another's.
    const refused = await commit([claimProgress(stopped, { entry: 'late' })]);
    expect(refused.committed).toBe(false);
  });

  it('stores the items in the forms the table already holds', async () => {
    setClock(new Date('2026-03-01T10:00:00.000Z'));
    const request = requestOnce(requestScope('form'), 'hash-f');
    await once(request, 10_000, async () => {
      expect(await itemOf(request.key.pk)).toEqual({
        ...request.key,
        request_hash: 'hash-f',
        status: 'in_progress',
        created_at: '2026-03-01T10:00:00.000Z',
        ttl: Date.parse('2026-03-02T10:00:00.000Z') / 1000,
        in_progress_expiry: Date.parse('2026-03-01T10:00:10.000Z'),
        claim_id: expect.any(String),
      });
      return respond(201)();
    });
    const event = webhookEventOnce('once', 'event-form', 'message-f');
    await once(event, 60_000, finished('applied'));

    expect(await itemOf(request.key.pk)).toEqual({
      ...request.key,
      request_hash: 'hash-f',
      status: 'completed',
      created_at: '2026-03-01T10:00:00.000Z',
      ttl: Date.parse('2026-03-02T10:00:00.000Z') / 1000,
      response_status: 201,
      response_body: '{"status":201}',
      claim_id: expect.any(String),
    });
    expect((await scanAll()).find((item) => item.sk === 'EVENT#event-form')).toEqual({
      pk: 'SHOP#once#EVENTS',
      sk: 'EVENT#event-form',
      status: 'done',
      outcome: 'applied',
      claim_id: 'message-f',
      ttl: expect.any(Number),
    });
  });

  it('reads a handled webhook event and a completed Idempotency-Key record written before claims were one entity', async () => {
    const ttl = Math.floor(Date.now() / 1000) + 3600;
    const put = (item: Record<string, unknown>) => documentClient().send(new PutCommand({ TableName: tableName(), Item: item }));
    await put({ pk: 'SHOP#once#EVENTS', sk: 'EVENT#old', status: 'done', outcome: 'points_awarded', claim_id: 'm', ttl });
    const request = requestOnce(requestScope('old'), 'hash-o');
    await put({ ...request.key, request_hash: 'hash-o', status: 'completed', response_status: 200, response_body: '{}', ttl });

    expect(await once(webhookEventOnce('once', 'old'), 60_000, finished('again'))).toEqual({
      ran: false,
      refused: 'finished',
      answer: 'points_awarded',
    });
    expect(await once(request, 10_000, respond(201))).toEqual({ ran: false, refused: 'finished', answer: { status: 200, body: '{}' } });
  });
});
