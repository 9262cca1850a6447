// The delay of event delivery on the twin: from a commit's answer to the event's arrival on the bus (the
// twin's stream reader over DynamoDB Local, the delivery handler, the bus), for commits one at a time at a
// steady pace; and how long GET /_events takes right after a commit (it waits for the reader to catch up).
// A twin of its own, in this process, so a subscriber on its bus timestamps each arrival.
import { randomUUID } from 'node:crypto';
import { DEMO_CONFIG, startTwin } from '../infra/local/twin';
import { commit } from '../shared/data/commit';
import type { EarningEvent } from '../shared/domain/events';
import { percentile } from './statistics';

export interface EventDeliveryFigures {
  commits: number;
  /** Ms between two commits. */
  paceMs: number;
  /** Commit answered to the event on the bus, ms. */
  delayP50: number;
  delayP99: number;
  delayMax: number;
  /** GET /_events right after a commit, until it answers with the commit's event, ms. */
  readAfterWriteP50: number;
  readAfterWriteP99: number;
  /** Events the bus never received (must be 0). */
  missing: number;
}

export async function eventDeliveryBench(commits = 200, paceMs = 25): Promise<EventDeliveryFigures> {
  const twin = await startTwin({ config: DEMO_CONFIG, port: 0, throttling: false });
  try {
    const arrived = new Map<string, number>();
    twin.bus.subscribe((event) => void arrived.set(event.id, performance.now()));
    const committed = new Map<string, number>();
    for (let n = 0; n < commits; n += 1) {
      const event: EarningEvent & { id: string } = {
        type: 'points.earned',
        shop_id: 'demo',
        customer_id: String(n),
        occurred_at: new Date().toISOString(),
        points: 1,
        id: randomUUID(),
      };
      await commit([], { events: [event] });
      committed.set(event.id, performance.now());
      await new Promise((resolve) => setTimeout(resolve, paceMs));
    }
    // Every event arrived, then: what GET /_events costs right after a commit.
    const deadline = Date.now() + 30_000;
    while (arrived.size < commits && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const reads: number[] = [];
    for (let n = 0; n < 20; n += 1) {
      const id = randomUUID();
      await commit([], {
        events: [{ type: 'points.earned', shop_id: 'demo', customer_id: 'r', occurred_at: new Date().toISOString(), id }],
      });
      const started = performance.now();
      const { events } = (await (await fetch(`${twin.url}/_events`)).json()) as { events: Array<{ id: string }> };
      if (events.some((event) => event.id === id)) reads.push(performance.now() - started);
    }
    const delays = [...committed].flatMap(([id, at]) => (arrived.has(id) ? [arrived.get(id)! - at] : [])).sort((a, b) => a - b);
    const sortedReads = reads.sort((a, b) => a - b);
    return {
      commits,
      paceMs,
      delayP50: percentile(delays, 50),
      delayP99: percentile(delays, 99),
      delayMax: delays.at(-1) ?? Number.NaN,
      readAfterWriteP50: percentile(sortedReads, 50),
      readAfterWriteP99: percentile(sortedReads, 99),
      missing: commits - delays.length + (20 - reads.length),
    };
  } finally {
    await twin.stop();
  }
}

export function printEventDelivery(figures: EventDeliveryFigures): void {
  console.log(`\nEvent delivery on the twin (${figures.commits} commits, one event each, every ${figures.paceMs} ms)`);
  console.log(
    `  commit answered → on the bus:  p50 ${figures.delayP50.toFixed(0)} ms, p99 ${figures.delayP99.toFixed(0)} ms, max ${figures.delayMax.toFixed(0)} ms`,
  );
  console.log(
    `  GET /_events right after a commit: p50 ${figures.readAfterWriteP50.toFixed(0)} ms, p99 ${figures.readAfterWriteP99.toFixed(0)} ms`,
  );
  console.log(`  missing: ${figures.missing}`);
}
