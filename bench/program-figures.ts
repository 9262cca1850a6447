// The program's figures (docs/admin.md#figures; docs/performance.md#the-programs-figures), in this process on
// the twin's table: what the figures consumer writes per event (a batch of 1 and of 25 events, the transaction's
// calls and write units), and what GET /admin/api/overview reads for 30 and 366 days in shops of each size:
// calls, read units and the p50 time of the answer's work, which must not grow with the members.
import { dynamoDbStats, pauseDynamoDbStats, resetDynamoDbStats } from '../shared/data/dynamodb-stats';
import { readShopCounters } from '../shared/data/shop-repository';
import { addFigures } from '../shared/data/items/program-figures';
import type { CommittedEvent } from '../shared/domain/events';
import { addCounts, contributionOf, emptyCounts } from '../shared/domain/program-figures';
import { countDeliveredEvents, programOverview } from '../shared/figures/program-figures';
import { seedScaleShop } from './scale-shop';
import { percentile } from './statistics';

const ROUNDS = 30;
const DAY_MS = 86_400_000;

export interface FiguresReadFigures {
  members: number;
  days: number;
  calls: Record<string, number>;
  readUnits: number;
  p50Ms: number;
}

export interface FiguresWriteFigures {
  batch: number;
  callsPerEvent: number;
  /** Items each transaction writes (a marker per event, the "now" item, each day touched), per event. */
  itemsPerEvent: number;
  /**
   * DynamoDB's write units per event: 2 per item of a transaction (every item here is under 1 KB). Counted from
   * the items, since DynamoDB Local reports no per-item capacity for a transaction.
   */
  writeUnitsPerEvent: number;
}

export interface ProgramFiguresBench {
  writes: FiguresWriteFigures[];
  reads: FiguresReadFigures[];
}

/** A year of events for `shopId`: a few of each kind a day, ending today. */
function yearOfEvents(shopId: string, run: string): CommittedEvent[] {
  const events: CommittedEvent[] = [];
  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
  for (let day = 0; day < 366; day += 1) {
    const at = new Date(today - day * DAY_MS + 3_600_000).toISOString();
    const base = { shop_id: shopId, customer_id: '1000000', occurred_at: at, notify: false };
    events.push(
      { ...base, id: `${run}-${day}-e`, type: 'points.earned', action: 'signup', points: 50 } as CommittedEvent,
      { ...base, id: `${run}-${day}-p`, type: 'reward.purchased', points_spent: 30, redeemed_at: at } as CommittedEvent,
      { ...base, id: `${run}-${day}-a`, type: 'points.approved', action: 'purchase', points: 12, points_given_at: at } as CommittedEvent,
    );
  }
  return events;
}

/** Counts `events` in batches of `batch`, as the consumer gets them; answers the cost per event. */
async function writeCost(events: CommittedEvent[], batch: number): Promise<FiguresWriteFigures> {
  resetDynamoDbStats();
  for (let start = 0; start < events.length; start += batch) await countDeliveredEvents(events.slice(start, start + batch));
  const stats = dynamoDbStats();
  pauseDynamoDbStats();
  const calls = Object.values(stats.calls).reduce((total, n) => total + n, 0);
  let items = 0;
  for (let start = 0; start < events.length; start += batch) {
    const slice = events.slice(start, start + batch);
    const sum = slice.reduce((total, event) => addCounts(total, contributionOf(event)), emptyCounts());
    items += slice.length + addFigures(slice[0]!.shop_id, sum).length;
  }
  return {
    batch,
    callsPerEvent: calls / events.length,
    itemsPerEvent: items / events.length,
    writeUnitsPerEvent: (2 * items) / events.length,
  };
}

/** The overview's reads for `days` ending today in `shopId`. */
async function readCost(shopId: string, members: number, days: number): Promise<FiguresReadFigures> {
  const to = new Date().toISOString().slice(0, 10);
  const from = new Date(Date.parse(to) - (days - 1) * DAY_MS).toISOString().slice(0, 10);
  await programOverview(shopId, { from, to });
  resetDynamoDbStats();
  await programOverview(shopId, { from, to });
  const stats = dynamoDbStats();
  pauseDynamoDbStats();
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const started = performance.now();
    await programOverview(shopId, { from, to });
    times.push(performance.now() - started);
  }
  return { members, days, calls: stats.calls, readUnits: stats.readUnits, p50Ms: percentile(times, 50) };
}

/** The bench process must point at the twin's table with DYNAMODB_STATS on. */
export async function programFiguresBench(scales: readonly number[]): Promise<ProgramFiguresBench> {
  const run = `bench-${Date.now()}`;
  const writes: FiguresWriteFigures[] = [];
  const reads: FiguresReadFigures[] = [];
  for (const [index, members] of scales.entries()) {
    const shopId = `scale-${members}`;
    const counters = await readShopCounters(shopId);
    if (counters.member !== members) await seedScaleShop(members, { emailIndex: false });
    const events = yearOfEvents(shopId, `${run}-${members}`);
    // The write cost, measured once: by single events, and by batches of 25 (one transaction each).
    if (index === 0) {
      writes.push(await writeCost(events.slice(0, 300), 1));
      writes.push(await writeCost(events.slice(300), 25));
    } else await countDeliveredEvents(events);
    for (const days of [30, 366]) reads.push(await readCost(shopId, members, days));
  }
  return { writes, reads };
}

export function printProgramFigures(figures: ProgramFiguresBench): void {
  console.log("\nprogram figures: the consumer's writes per event");
  for (const write of figures.writes)
    console.log(
      `  batches of ${write.batch}: ${write.callsPerEvent.toFixed(2)} calls, ${write.itemsPerEvent.toFixed(2)} items, ${write.writeUnitsPerEvent.toFixed(2)} WCU per event`,
    );
  console.log("program figures: GET /admin/api/overview (the answer's work, in process)");
  for (const read of figures.reads) {
    const calls = Object.entries(read.calls)
      .map(([command, n]) => `${n} ${command.replace(/Command$/, '')}`)
      .join(', ');
    console.log(
      `  ${read.members} members, ${read.days} days: ${calls}; ${read.readUnits.toFixed(1)} RCU; p50 ${read.p50Ms.toFixed(2)} ms`,
    );
  }
}
