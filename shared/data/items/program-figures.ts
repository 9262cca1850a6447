// The program's figures as the table keeps them (docs/admin.md#figures): per shop, one item per UTC day that
// has any figure (`DAY#YYYY-MM-DD`) and one item of the figures "now" (`NOW`), in a partition of their own, and
// one marker per counted event in a partition of its own each. Only the figures consumer writes them, one
// transaction per batch of a shop's events: each event's marker (created only if absent) with ADD updates of
// the day and "now" items. A redelivered event's marker exists: the transaction is refused on it, and the event
// is dropped as counted. ADD makes the order of events irrelevant; no API write ever touches these items.
import type { DayCounts, FigureCounts, NowCounts } from '../../domain/program-figures';
import { DAY_COUNTERS, NOW_COUNTERS } from '../../domain/program-figures';
import { TTL_ATTRIBUTE } from '../table';
import type { Write } from '../write';
import { defineItem } from './define-item';
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

export const figuresDay = defineItem({
  name: 'program figures of a UTC day (ADDed by the figures consumer)',
  key: figuresDayKey,
  placeholder: ['<shop>', '<YYYY-MM-DD>'],
});
export const figuresNow = defineItem({
  name: 'program figures now (ADDed by the figures consumer)',
  key: figuresNowKey,
  placeholder: ['<shop>'],
});
export const erasedFigures = defineItem({
  name: "an erased member's part of the figures' history (put by the erasure, no customer id)",
  key: erasedFiguresKey,
  placeholder: ['<shop>', '<random id>'],
});
export const countedEvent = defineItem({
  name: 'an event the figures counted (TTL 90 days)',
  key: countedEventKey,
  placeholder: ['<shop>', '<event id>'],
  indexed: [TTL_ATTRIBUTE],
  derived: [TTL_ATTRIBUTE],
});

export const figuresItemTypes: readonly ItemType[] = [figuresDay.type, figuresNow.type, erasedFigures.type, countedEvent.type];

/** The write that marks an event counted: refused when it was counted before. */
export function markEventCounted(shopId: string, eventId: string, nowSeconds: number): Write {
  return countedEvent.put(
    `mark event ${eventId} counted`,
    countedEventKey(shopId, eventId),
    { [TTL_ATTRIBUTE]: nowSeconds + COUNTED_KEPT_SECONDS },
    { ifNew: true },
  );
}

/** The event id a marker write names (the inverse of `markEventCounted`'s name). */
export const eventIdOfMarker = (name: string): string | null => /^mark event (.+) counted$/.exec(name)?.[1] ?? null;

/** The counters of `counts` that are not zero, in the order of `counters`. */
function present(counts: Record<string, number | undefined>, counters: readonly string[]): Record<string, number> | null {
  const given = counters.filter((counter) => (counts[counter] ?? 0) !== 0);
  return given.length === 0 ? null : Object.fromEntries(given.map((counter) => [counter, counts[counter]!]));
}

/** The ADD updates of `counts` on the shop's day items and its "now" item (none for a zero). */
export function addFigures(shopId: string, counts: FigureCounts): Write[] {
  const now = present(counts.now, NOW_COUNTERS);
  const writes = now ? [figuresNow.update('add to the figures now', figuresNowKey(shopId), { add: now })] : [];
  for (const [day, row] of [...counts.days].sort(([a], [b]) => a.localeCompare(b))) {
    const added = present(row, DAY_COUNTERS);
    if (added) writes.push(figuresDay.update(`add to the figures of ${day}`, figuresDayKey(shopId, day), { add: added }));
  }
  return writes;
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
  return erasedFigures.put(
    "keep the erased member's figures history",
    erasedFiguresKey(shopId, erasureId),
    { now: { ...history.now }, days: Object.fromEntries([...history.days].map(([day, row]) => [day, { ...row }])) },
    { ifNew: true },
  );
}

/** The history an erased-figures item holds. */
export function erasedFiguresOf(item: Record<string, unknown>): FigureCounts {
  const days = (item.days ?? {}) as Record<string, Record<string, unknown>>;
  return {
    now: countersOf<NowCounts>(item.now as Record<string, unknown> | undefined, NOW_COUNTERS),
    days: new Map(Object.entries(days).map(([day, row]) => [day, countersOf<DayCounts>(row, DAY_COUNTERS)])),
  };
}
