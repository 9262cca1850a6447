// The program's figures as the table keeps them (docs/admin.md#figures): per shop, one item per UTC day that
// has any figure (`DAY#YYYY-MM-DD`) and one item of the figures "now" (`NOW`), in a partition of their own, and
// one marker per counted event in a partition of its own each. Only the figures consumer writes them, one
// transaction per batch of a shop's events: each event's marker (created only if absent) with ADD updates of
// the day and "now" items. A redelivered event's marker exists: the transaction is refused on it, and the event
// is dropped as counted. ADD makes the order of events irrelevant; no API write ever touches these items.
import type { DayCounts, FigureCounts, NowCounts } from '../../domain/program-figures';
import { DAY_COUNTERS, NOW_COUNTERS } from '../../domain/program-figures';
import { tableName } from '../client';
import { TTL_ATTRIBUTE } from '../table';
import { namedWrite, type Write } from '../write';
import type { ItemKey, ItemType } from './item-type';

/** The figures' partition of a shop. */
export const figuresPk = (shopId: string) => `SHOP#${shopId}#FIGURES`;
export const FIGURES_DAY_PREFIX = 'DAY#';

export const figuresDayKey = (shopId: string, day: string): ItemKey => ({ pk: figuresPk(shopId), sk: `${FIGURES_DAY_PREFIX}${day}` });
export const figuresNowKey = (shopId: string): ItemKey => ({ pk: figuresPk(shopId), sk: 'NOW' });
export const FIGURES_ERASED_PREFIX = 'ERASED#';
/** The history an erased member's items gave the figures, kept without them (no customer id: a random id). */
export const erasedFiguresKey = (shopId: string, erasureId: string): ItemKey => ({
  pk: figuresPk(shopId),
  sk: `${FIGURES_ERASED_PREFIX}${erasureId}`,
});
export const countedEventKey = (shopId: string, eventId: string): ItemKey => ({
  pk: `SHOP#${shopId}#FIGURES_EVENT#${eventId}`,
  sk: 'COUNTED',
});

/**
 * How long an event's marker stays: far beyond any redelivery (the stream keeps a record 24 hours, the bus
 * retries for 24 hours, the figures queue keeps a message 4 days and its dead-letter queue 14).
 */
export const COUNTED_KEPT_SECONDS = 90 * 86_400;

export const figuresItemTypes: readonly ItemType[] = [
  { name: 'program figures of a UTC day (ADDed by the figures consumer)', key: figuresDayKey('<shop>', '<YYYY-MM-DD>') },
  { name: 'program figures now (ADDed by the figures consumer)', key: figuresNowKey('<shop>') },
  {
    name: "an erased member's part of the figures' history (put by the erasure, no customer id)",
    key: erasedFiguresKey('<shop>', '<random id>'),
  },
  {
    name: 'an event the figures counted (TTL 90 days)',
    key: countedEventKey('<shop>', '<event id>'),
    indexed: [TTL_ATTRIBUTE],
    derived: [TTL_ATTRIBUTE],
  },
];

/** The write that marks an event counted: refused when it was counted before. */
export function markEventCounted(shopId: string, eventId: string, nowSeconds: number): Write {
  return namedWrite(`mark event ${eventId} counted`, {
    Put: {
      TableName: tableName(),
      Item: { ...countedEventKey(shopId, eventId), [TTL_ATTRIBUTE]: nowSeconds + COUNTED_KEPT_SECONDS },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  });
}

/** The event id a marker write names (the inverse of `markEventCounted`'s name). */
export const eventIdOfMarker = (name: string): string | null => /^mark event (.+) counted$/.exec(name)?.[1] ?? null;

function addUpdate(name: string, key: ItemKey, counts: Record<string, number | undefined>, counters: readonly string[]): Write | null {
  const present = counters.filter((counter) => (counts[counter] ?? 0) !== 0);
  if (present.length === 0) return null;
  const names: Record<string, string> = {};
  const values: Record<string, number> = {};
  present.forEach((counter, index) => {
    names[`#c${index}`] = counter;
    values[`:c${index}`] = counts[counter]!;
  });
  return namedWrite(name, {
    Update: {
      TableName: tableName(),
      Key: key,
      UpdateExpression: `ADD ${present.map((_, index) => `#c${index} :c${index}`).join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  });
}

/** The ADD updates of `counts` on the shop's day items and its "now" item (none for a zero). */
export function addFigures(shopId: string, counts: FigureCounts): Write[] {
  const writes: Array<Write | null> = [addUpdate('add to the figures now', figuresNowKey(shopId), counts.now, NOW_COUNTERS)];
  for (const [day, row] of [...counts.days].sort(([a], [b]) => a.localeCompare(b)))
    writes.push(addUpdate(`add to the figures of ${day}`, figuresDayKey(shopId, day), row, DAY_COUNTERS));
  return writes.filter((write): write is Write => write !== null);
}

/** A stored day or "now" item's counters (absent ones are 0). */
export function countersOf<T extends DayCounts | NowCounts>(
  item: Record<string, unknown> | null | undefined,
  counters: readonly string[],
): T {
  const out: Record<string, number> = {};
  for (const counter of counters) {
    const value = Number(item?.[counter] ?? 0);
    if (value !== 0) out[counter] = value;
  }
  return out as T;
}

/**
 * The put of what an erased member's items gave the figures' history (its days, its lifetime issued and
 * redeemed points), committed with the profile's deletion: a full read keeps counting it once the items are gone.
 */
export function putErasedFigures(shopId: string, erasureId: string, history: FigureCounts): Write {
  return namedWrite("keep the erased member's figures history", {
    Put: {
      TableName: tableName(),
      Item: {
        ...erasedFiguresKey(shopId, erasureId),
        now: { ...history.now },
        days: Object.fromEntries([...history.days].map(([day, row]) => [day, { ...row }])),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  });
}

/** The history an erased-figures item holds. */
export function erasedFiguresOf(item: Record<string, unknown>): FigureCounts {
  const days = (item.days ?? {}) as Record<string, Record<string, unknown>>;
  return {
    now: countersOf<NowCounts>(item.now as Record<string, unknown> | undefined, NOW_COUNTERS),
    days: new Map(Object.entries(days).map(([day, row]) => [day, countersOf<DayCounts>(row, DAY_COUNTERS)])),
  };
}
