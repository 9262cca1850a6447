// The one retry helper: how often it tries, when it stops, and how long it waits.
import { backoffDelay, retryUntil } from '../../shared/runtime/retry';

describe('retryUntil', () => {
  it('stops at the first try that returns a value', async () => {
    const tries: number[] = [];
    const result = await retryUntil(5, null, async (index) => {
      tries.push(index);
      return index === 2 ? 'done' : undefined;
    });

    expect(result).toBe('done');
    expect(tries).toEqual([0, 1, 2]);
  });

  it('gives up after maxAttempts tries and leaves the report to the caller', async () => {
    let tries = 0;
    const result = await retryUntil(3, { baseMs: 0, capMs: 0 }, async () => {
      tries += 1;
      return undefined;
    });

    expect(result).toBeUndefined();
    expect(tries).toBe(3);
  });

  it('ends at once when a try throws', async () => {
    let tries = 0;
    const failing = retryUntil(5, null, async () => {
      tries += 1;
      throw new Error('refused');
    });

    await expect(failing).rejects.toThrow('refused');
    expect(tries).toBe(1);
  });

  it('treats false as an answer, not as a reason to retry', async () => {
    let tries = 0;
    const result = await retryUntil(5, null, async () => {
      tries += 1;
      return false;
    });

    expect(result).toBe(false);
    expect(tries).toBe(1);
  });
});

describe('backoffDelay', () => {
  it('doubles from 2 × base up to the cap without jitter', () => {
    const delays = [1, 2, 3, 4, 5, 6].map((retry) => backoffDelay(retry, { baseMs: 25, capMs: 1000, jitter: 'none' }));

    expect(delays).toEqual([50, 100, 200, 400, 800, 1000]);
  });

  it('draws a wait below the ceiling with full jitter', () => {
    expect(backoffDelay(3, { baseMs: 1, capMs: 50 }, () => 0.5)).toBe(4);
    expect(backoffDelay(30, { baseMs: 1, capMs: 50 }, () => 0.999)).toBeLessThan(50);
  });

  it('never waits less than half the ceiling with equal jitter', () => {
    expect(backoffDelay(2, { baseMs: 50, capMs: 10_000, jitter: 'equal' }, () => 0)).toBe(100);
    expect(backoffDelay(2, { baseMs: 50, capMs: 10_000, jitter: 'equal' }, () => 1)).toBe(200);
  });

  it('lets a function choose each wait (a server asking for one)', async () => {
    const waits: number[] = [];
    await retryUntil(
      3,
      (retry) => {
        waits.push(retry);
        return 0;
      },
      async () => undefined,
    );

    expect(waits).toEqual([1, 2]);
  });
});
