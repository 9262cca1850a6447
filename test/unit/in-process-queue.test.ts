// The twin's in-process queue: `inline` answers `send` after the consumer, `queued` once the message is queued
// (as SQS), working the queue in the background a bounded number at once, with retries and the dead-letter
// list; `drained()` waits until everything sent was worked.
import { setTimeout as delay } from 'node:timers/promises';
import { MAX_RECEIVE_COUNT } from '../../infra/cdk/constructs/webhook-delivery-queue';
import { inProcessQueue, QUEUED_MAX_RECEIVES } from '../../infra/local/in-process-queue';
import { PROJECT_ROOT } from '../../infra/local/twin';
import { closeGate, consumerState, openGate, resetConsumer } from '../support/gated-consumer';

const consumer = { name: 'gated', handler: 'test/support/gated-consumer.ts', timeoutSeconds: 30 };

/** Whether `promise` settles within a few turns of the event loop. */
async function settlesSoon(promise: Promise<unknown>): Promise<boolean> {
  return Promise.race([promise.then(() => true), delay(50).then(() => false)]);
}

beforeEach(() => {
  resetConsumer();
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  openGate();
  jest.restoreAllMocks();
});

describe('in-process queue', () => {
  it('queued: answers the sender before the consumer has worked the message, and drained() waits for it', async () => {
    const queue = inProcessQueue<{ n: number }>(PROJECT_ROOT, consumer, { mode: 'queued' });
    closeGate();
    await queue.send({ n: 1 });
    expect(consumerState.consumed).toEqual([]);
    const drained = queue.drained();
    expect(await settlesSoon(drained)).toBe(false);
    expect(queue.counts()).toMatchObject({ mode: 'queued', inFlight: 1, consumed: 0 });
    openGate();
    expect(await drained).toEqual({ mode: 'queued', waiting: 0, inFlight: 0, consumed: 1, deadLetters: 0 });
    expect(consumerState.consumed).toEqual([{ n: 1 }]);
  });

  it('inline: answers the sender only once the consumer has worked the message', async () => {
    const queue = inProcessQueue<{ n: number }>(PROJECT_ROOT, consumer);
    closeGate();
    const sent = queue.send({ n: 1 });
    expect(await settlesSoon(sent)).toBe(false);
    openGate();
    await sent;
    expect(consumerState.consumed).toEqual([{ n: 1 }]);
    expect(await queue.drained()).toMatchObject({ mode: 'inline', consumed: 1 });
  });

  it('queued: works at most `concurrency` messages at once, every message once, in the order sent', async () => {
    const queue = inProcessQueue<{ n: number }>(PROJECT_ROOT, consumer, { mode: 'queued', concurrency: 3 });
    closeGate();
    for (let n = 0; n < 10; n += 1) await queue.send({ n });
    await delay(20);
    expect(queue.counts()).toMatchObject({ waiting: 7, inFlight: 3 });
    openGate();
    await queue.drained();
    expect(consumerState.maxActive).toBe(3);
    expect(consumerState.consumed).toEqual(Array.from({ length: 10 }, (_, n) => ({ n })));
  });

  it('queued: works messages of one ordering key one after the other, in the order sent', async () => {
    const queue = inProcessQueue<{ n: number; key: string }>(PROJECT_ROOT, consumer, {
      mode: 'queued',
      concurrency: 4,
      orderingKey: (message) => message.key,
    });
    closeGate();
    for (let n = 0; n < 6; n += 1) await queue.send({ n, key: n < 4 ? 'a' : `b${n}` });
    await delay(20);
    // One of key `a` and both others at once; the rest of `a` waits its turn.
    expect(queue.counts()).toMatchObject({ inFlight: 3, waiting: 3 });
    openGate();
    await queue.drained();
    expect(consumerState.consumed.filter((message) => (message as { key: string }).key === 'a')).toEqual(
      [0, 1, 2, 3].map((n) => ({ n, key: 'a' })),
    );
  });

  it('queued: retries a failed message up to the stack’s receives, waiting longer before each, then sets it aside; drained() counts it', async () => {
    const waits: number[] = [];
    const queue = inProcessQueue<{ n: number; fail?: boolean }>(PROJECT_ROOT, consumer, {
      mode: 'queued',
      wait: async (ms) => void waits.push(ms),
    });
    await queue.send({ n: 1, fail: true });
    await queue.send({ n: 2 });
    expect(await queue.drained()).toEqual({ mode: 'queued', waiting: 0, inFlight: 0, consumed: 1, deadLetters: 1 });
    expect(consumerState.receives).toBe(QUEUED_MAX_RECEIVES + 1);
    expect(QUEUED_MAX_RECEIVES).toBe(MAX_RECEIVE_COUNT);
    // Like SQS's visibility timeout: no receive right after a failure; none after the last.
    expect(waits).toEqual([1000, 2000, 4000, 8000]);
    expect(queue.deadLetters()).toEqual([{ n: 1, fail: true }]);
  });

  it('inline: retries at once, three receives', async () => {
    const waits: number[] = [];
    const queue = inProcessQueue<{ n: number; fail?: boolean }>(PROJECT_ROOT, consumer, { wait: async (ms) => void waits.push(ms) });
    await queue.send({ n: 1, fail: true });
    expect(consumerState.receives).toBe(3);
    expect(waits).toEqual([]);
    expect(queue.deadLetters()).toEqual([{ n: 1, fail: true }]);
  });

  it('drained() answers at once when nothing was sent, and stop() drops what waits', async () => {
    const queue = inProcessQueue<{ n: number }>(PROJECT_ROOT, consumer, { mode: 'queued', concurrency: 1 });
    expect(await queue.drained()).toMatchObject({ consumed: 0 });
    closeGate();
    await queue.send({ n: 1 });
    await queue.send({ n: 2 });
    await delay(20);
    await queue.stop();
    openGate();
    await queue.drained();
    expect(consumerState.consumed).toEqual([{ n: 1 }]);
    await expect(queue.send({ n: 3 })).rejects.toThrow('stopped');
  });
});
