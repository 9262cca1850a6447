// The program's figures in the table (items/program-figures.ts): counting delivered events once each, reading
// a range of days with the figures now, and the full read that `stats verify` and the backfill recompute from.
import { randomUUID } from 'node:crypto';
import { BatchWriteCommand, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { CommittedEvent } from '../domain/events';
import {
  addCounts,
  contributionOf,
  countsOfFullRead,
  DAY_COUNTERS,
  type DayCounts,
  emptyCounts,
  type EarningEntryForFigures,
  type FigureCounts,
  type MemberForFigures,
  NOW_COUNTERS,
  type NowCounter,
  type NowCounts,
  type OrderForFigures,
  type RewardEntryForFigures,
} from '../domain/program-figures';
import { BATCH_BACKOFF, CONTENTION_BACKOFF, retryUntil } from '../runtime/retry';
import { documentClient, tableName } from './client';
import { commit, commitOne } from './commit';
import { BATCH_ATTEMPTS, forEachPartitionPage, type Item, queryAll } from './item-reads';
import { customerPk } from './items/customer-profile';
import { EARNING_ENTRY_PREFIX } from './items/earning-entry';
import { ORDER_PREFIX } from './items/order';
import {
  addFigures,
  countersOf,
  erasedFiguresOf,
  eventIdOfMarker,
  FIGURES_DAY_PREFIX,
  FIGURES_ERASED_PREFIX,
  figuresDayKey,
  figuresNowKey,
  figuresPk,
  markEventCounted,
  putErasedFigures,
} from './items/program-figures';
import type { Write } from './write';
import { REWARD_ENTRY_PREFIX } from './items/reward-entry';

/** Events of one transaction: each event's marker, plus the day and "now" updates, stay well under 100 writes. */
export const EVENTS_PER_TRANSACTION = 25;
/** Tries of one transaction refused by a conflict (another batch of the same shop on the same items) or failing. */
const CONFLICT_ATTEMPTS = 40;

export interface CountOutcome {
  counted: number;
  /** Events counted before (a redelivery): dropped as done. */
  duplicates: number;
}

/**
 * Counts one shop's delivered events: per transaction, a marker per event and the sum of their contributions
 * ADDed. A transaction refused on markers drops those events (counted before) and commits the rest.
 */
export async function countShopEvents(shopId: string, events: readonly CommittedEvent[], nowSeconds: number): Promise<CountOutcome> {
  const outcome: CountOutcome = { counted: 0, duplicates: 0 };
  const unique = [...new Map(events.map((event) => [event.id, event])).values()];
  outcome.duplicates += events.length - unique.length;
  let lastError: unknown;
  for (let start = 0; start < unique.length; start += EVENTS_PER_TRANSACTION) {
    let pending = unique.slice(start, start + EVENTS_PER_TRANSACTION);
    const done = await retryUntil(CONFLICT_ATTEMPTS, CONTENTION_BACKOFF, async () => {
      if (pending.length === 0) return true;
      const sum = pending.reduce((total, event) => addCounts(total, contributionOf(event)), emptyCounts());
      let result;
      try {
        result = await commit([...pending.map((event) => markEventCounted(shopId, event.id, nowSeconds)), ...addFigures(shopId, sum)]);
      } catch (error) {
        // Throttled, a lost answer, an internal error: tried again; a transaction that did commit meanwhile is
        // refused on its markers next time, and its events dropped as counted.
        lastError = error;
        return undefined;
      }
      if (result.committed) {
        outcome.counted += pending.length;
        return true;
      }
      if (result.refusal.kind === 'condition') {
        const seen = new Set(result.refusal.failed.map(eventIdOfMarker).filter((id): id is string => id !== null));
        outcome.duplicates += pending.filter((event) => seen.has(event.id)).length;
        pending = pending.filter((event) => !seen.has(event.id));
      }
      return undefined;
    });
    if (!done) {
      throw new Error(`The figures of ${pending.length} events of shop ${shopId} could not be counted: the transaction kept failing`, {
        cause: lastError,
      });
    }
  }
  return outcome;
}

/**
 * ADDs `counts` to the shop's figures outside any transaction (the configuration's members: no event carries
 * them). Plain updates of one item each never conflict with the consumer's transactions.
 */
export async function addShopFigures(shopId: string, counts: FigureCounts): Promise<void> {
  await Promise.all(addFigures(shopId, counts).map((write) => commitOne(write)));
}

/** The figures now and those of the days `from`..`to` (`YYYY-MM-DD`): one Query of the days and the "now" item. */
export async function readFigures(shopId: string, from: string, to: string): Promise<{ now: NowCounts; days: Map<string, DayCounts> }> {
  const [days, now] = await Promise.all([
    queryAll({
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': figuresPk(shopId), ':from': `${FIGURES_DAY_PREFIX}${from}`, ':to': `${FIGURES_DAY_PREFIX}${to}` },
    }),
    documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND sk = :sk',
        ExpressionAttributeValues: { ':pk': figuresPk(shopId), ':sk': figuresNowKey(shopId).sk },
      }),
    ),
  ]);
  return {
    now: countersOf<NowCounts>(now.Items?.[0], NOW_COUNTERS),
    days: new Map(days.map((item) => [String(item.sk).slice(FIGURES_DAY_PREFIX.length), countersOf<DayCounts>(item, DAY_COUNTERS)])),
  };
}

/** Every figure kept for the shop: the "now" item and every day item (the whole figures partition). */
export async function readAllFigures(shopId: string): Promise<FigureCounts> {
  const items = await queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': figuresPk(shopId) } });
  const counts = emptyCounts();
  for (const item of items) {
    const sk = String(item.sk);
    if (sk === figuresNowKey(shopId).sk) counts.now = countersOf<NowCounts>(item, NOW_COUNTERS);
    else if (sk.startsWith(FIGURES_DAY_PREFIX)) {
      const row = countersOf<DayCounts>(item, DAY_COUNTERS);
      if (Object.keys(row).length > 0) counts.days.set(sk.slice(FIGURES_DAY_PREFIX.length), row);
    }
  }
  return counts;
}

/** What a full read of the shop's members gives: every profile, earning and reward entry, and order. */
export interface ShopFullRead {
  members: MemberForFigures[];
  earning: EarningEntryForFigures[];
  rewards: RewardEntryForFigures[];
  orders: OrderForFigures[];
  /** Items read (the scan's cost). */
  scanned: number;
}

/** Sorts items of member partitions into what the figures read of them (profiles, entries, orders). */
function sortForFigures(items: readonly Item[], read: Omit<ShopFullRead, 'scanned'>): void {
  for (const item of items) {
    const sk = String(item.sk);
    if (sk === 'PROFILE') read.members.push(item as unknown as MemberForFigures);
    else if (sk.startsWith(EARNING_ENTRY_PREFIX)) read.earning.push(item as unknown as EarningEntryForFigures);
    else if (sk.startsWith(REWARD_ENTRY_PREFIX)) read.rewards.push(item as unknown as RewardEntryForFigures);
    else if (sk.startsWith(ORDER_PREFIX)) read.orders.push(item as unknown as OrderForFigures);
  }
}

/** What one member's items give the figures (its part of a full read), read consistently page by page. */
export async function memberFigures(shopId: string, customerId: string): Promise<FigureCounts> {
  const counts = emptyCounts();
  await forEachPartitionPage(customerPk(shopId, customerId), 100, async (items) => {
    const read = { members: [], earning: [], rewards: [], orders: [] };
    sortForFigures(items, read);
    addCounts(counts, countsOfFullRead(read));
  });
  return counts;
}

/** The figures "now" that belong to a member while it exists: its balance, pending points and order count. */
const MEMBER_NOW: readonly NowCounter[] = ['points_outstanding', 'points_pending', 'members_ordered', 'members_reordered'];

/**
 * The writes an erasure commits with the profile's deletion (docs/admin.md#figures): the member's counts
 * "now" come off, and what its items gave the history (days, lifetime issued and redeemed) is kept in an item
 * of the figures' own, without the customer's id, so a full read after the items are gone still counts it.
 */
export function eraseMemberFigures(shopId: string, member: FigureCounts, erasureId: string): Write[] {
  const removed = emptyCounts();
  const history: FigureCounts = { now: {}, days: member.days };
  for (const counter of NOW_COUNTERS) {
    const value = member.now[counter] ?? 0;
    if (value === 0) continue;
    if (MEMBER_NOW.includes(counter)) removed.now[counter] = -value;
    else history.now[counter] = value;
  }
  const empty = history.days.size === 0 && Object.keys(history.now).length === 0;
  return [...addFigures(shopId, removed), ...(empty ? [] : [putErasedFigures(shopId, erasureId, history)])];
}

/**
 * The writes an erasure commits with a member's profile deletion (`eraseCustomer`'s `figures`), read when
 * called: an erasure calls it again for each try of its transaction.
 */
export async function erasedMemberFigures(shopId: string, customerId: string): Promise<readonly Write[]> {
  return eraseMemberFigures(shopId, await memberFigures(shopId, customerId), randomUUID());
}

/** What every erased member's items gave the history (the erased-figures items). */
export async function readErasedFigures(shopId: string): Promise<FigureCounts> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': figuresPk(shopId), ':prefix': FIGURES_ERASED_PREFIX },
    ConsistentRead: true,
  });
  return items.reduce((total, item) => addCounts(total, erasedFiguresOf(item)), emptyCounts());
}

/** Reads every member partition of the shop: a Scan of the table, in `segments` parallel segments. */
export async function readShopMembers(shopId: string, segments = 4): Promise<ShopFullRead> {
  const prefix = customerPk(shopId, '');
  const read: ShopFullRead = { members: [], earning: [], rewards: [], orders: [], scanned: 0 };
  await Promise.all(
    Array.from({ length: segments }, async (_, segment) => {
      let startKey: Record<string, unknown> | undefined;
      do {
        const page = await documentClient().send(
          new ScanCommand({
            TableName: tableName(),
            Segment: segment,
            TotalSegments: segments,
            ConsistentRead: true,
            FilterExpression: 'begins_with(pk, :prefix)',
            ExpressionAttributeValues: { ':prefix': prefix },
            ExclusiveStartKey: startKey,
          }),
        );
        read.scanned += page.ScannedCount ?? 0;
        sortForFigures((page.Items ?? []) as Item[], read);
        startKey = page.LastEvaluatedKey;
      } while (startKey);
    }),
  );
  return read;
}

/** Replaces the shop's day and "now" items with `counts` (the backfill): day items no longer in `counts` are deleted. */
export async function replaceFigures(shopId: string, counts: FigureCounts): Promise<{ written: number; deleted: number }> {
  // The erased members' history stays: it is part of what a full read gives (readErasedFigures).
  const existing = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': figuresPk(shopId), ':prefix': FIGURES_DAY_PREFIX },
  });
  const keep = new Set([figuresNowKey(shopId).sk, ...[...counts.days.keys()].map((day) => figuresDayKey(shopId, day).sk)]);
  const deletes = existing
    .filter((item) => !keep.has(String(item.sk)))
    .map((item) => ({ DeleteRequest: { Key: { pk: item.pk, sk: item.sk } } }));
  const puts = [
    { PutRequest: { Item: { ...figuresNowKey(shopId), ...counts.now } } },
    ...[...counts.days].map(([day, row]) => ({ PutRequest: { Item: { ...figuresDayKey(shopId, day), ...row } } })),
  ];
  const requests = [...deletes, ...puts];
  for (let start = 0; start < requests.length; start += 25) {
    let pending: Array<Record<string, unknown>> = requests.slice(start, start + 25);
    const written = await retryUntil(BATCH_ATTEMPTS, BATCH_BACKOFF, async () => {
      const result = await documentClient().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending as never } }));
      pending = (result.UnprocessedItems?.[tableName()] ?? []) as Array<Record<string, unknown>>;
      return pending.length === 0 ? true : undefined;
    });
    if (!written) throw new Error(`Figures of shop ${shopId}: ${pending.length} writes left unprocessed`);
  }
  return { written: puts.length, deleted: deletes.length };
}
