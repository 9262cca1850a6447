// The program's figures (SURFACES-CONTRACT.md, "The program's figures"; docs/admin.md#figures): the consumer's
// work (each delivered event counted once on its shop's day and "now" items), the overview's answer (one Query
// of the range's days, the "now" item and the shop's member counters: O(days), never O(members)), and the full
// read that `npx loyalty stats verify` compares with what is kept, and that the backfill writes.
import {
  countShopEvents,
  type CountOutcome,
  readAllFigures,
  readErasedFigures,
  readFigures,
  readShopMembers,
  replaceFigures,
} from '../data/figures-repository';
import { readShopCounters } from '../data/shop-repository';
import type { CommittedEvent } from '../domain/events';
import { invalid } from '../domain/errors';
import { minorDigits } from '../domain/money';
import { addCounts, countsOfFullRead, differencesOf, type OverviewAttributes, overviewOf, pointValueOf } from '../domain/program-figures';
import { overviewRange } from '../domain/dates';
import type { ShopCatalog } from '../domain/shop';
import { now, nowIso } from '../runtime/clock';
import { shopCatalog } from '../shops/shop-catalog';

/** Counts delivered events, each once, per shop; answers the counts of all shops together. */
export async function countDeliveredEvents(events: readonly CommittedEvent[]): Promise<CountOutcome> {
  const byShop = new Map<string, CommittedEvent[]>();
  for (const event of events) byShop.set(event.shop_id, [...(byShop.get(event.shop_id) ?? []), event]);
  const nowSeconds = Math.floor(now().getTime() / 1000);
  const outcomes = await Promise.all([...byShop].map(([shopId, shopEvents]) => countShopEvents(shopId, shopEvents, nowSeconds)));
  return outcomes.reduce(
    (total, outcome) => ({ counted: total.counted + outcome.counted, duplicates: total.duplicates + outcome.duplicates }),
    {
      counted: 0,
      duplicates: 0,
    },
  );
}

/** The shop's point value (SURFACES-CONTRACT.md): configured, else store credit's minor unit, else the best fixed reward. */
export function shopPointValue(shop: ShopCatalog) {
  return pointValueOf({
    configured: shop.settings.analytics?.point_value ?? null,
    mode: shop.settings.loyalty_mode,
    minorDigits: minorDigits(shop.settings.currency),
    rewards: shop.rewards.map((reward) => ({
      is_active: reward.is_active && !reward.deleted,
      purchasable: reward.reward_type !== 'entry',
      discount_type: reward.discount_type,
      discount_amount: reward.discount_amount,
      points_cost: reward.points_cost,
      tier_restricted: reward.vip_tier_id !== null || reward.reward_type === 'vip',
      fixed_cost: reward.redemption_mode === 'fixed',
    })),
  });
}

/** `GET /admin/api/overview`'s attributes for `query`'s range (400 on a bad range). */
export async function programOverview(shopId: string, query: { from?: string; to?: string }): Promise<OverviewAttributes> {
  const range = overviewRange(query, nowIso().slice(0, 10));
  if ('error' in range) throw invalid(range.error);
  const [shop, kept, members] = await Promise.all([
    shopCatalog(shopId),
    readFigures(shopId, range.from, range.to),
    readShopCounters(shopId),
  ]);
  return overviewOf({
    now: kept.now,
    days: kept.days,
    members,
    range: range.days,
    currency: shop.settings.currency,
    minorDigits: minorDigits(shop.settings.currency),
    pointValue: shopPointValue(shop),
  });
}

export interface FiguresCheck {
  differences: Array<{ figure: string; kept: number; recomputed: number }>;
  members: number;
  scanned: number;
}

/** A full read of the shop: its members' items, and the history erased members' items gave, kept without them. */
async function fullRead(shopId: string) {
  const [read, erased] = await Promise.all([readShopMembers(shopId), readErasedFigures(shopId)]);
  return { read, counts: addCounts(countsOfFullRead(read), erased) };
}

/**
 * Recomputes the shop's figures from a full read (the members' items, and the history erased members' items
 * gave, kept without them) and lists every one that differs from what is kept.
 */
export async function verifyFigures(shopId: string): Promise<FiguresCheck> {
  const [{ read, counts }, kept, counters] = await Promise.all([fullRead(shopId), readAllFigures(shopId), readShopCounters(shopId)]);
  const differences = differencesOf(kept, counts);
  const total = read.members.length;
  const excluded = read.members.filter((member) => member.status === 'excluded').length;
  if (counters.member + counters.excluded !== total)
    differences.unshift({ figure: 'members.total', kept: counters.member + counters.excluded, recomputed: total });
  if (counters.excluded !== excluded) differences.unshift({ figure: 'members.excluded', kept: counters.excluded, recomputed: excluded });
  return { differences, members: total, scanned: read.scanned };
}

/**
 * Writes the figures a full read gives over whatever is kept (a table that existed before the figures, or
 * one `stats verify` found wrong). Events committed before the read and counted after it would count twice:
 * run it while the figures consumer is held (docs/operate.md#the-programs-figures).
 */
export async function backfillFigures(shopId: string): Promise<{ members: number; days: number; deleted: number }> {
  const { read, counts } = await fullRead(shopId);
  const written = await replaceFigures(shopId, counts);
  return { members: read.members.length, days: counts.days.size, deleted: written.deleted };
}

/** The event an EventBridge envelope on the figures queue carries, or why it is not one (dropped). */
export function eventOfMessage(body: string): CommittedEvent | string {
  let envelope: unknown;
  try {
    envelope = JSON.parse(body);
  } catch {
    return 'not JSON';
  }
  const detail = (envelope as { detail?: unknown } | null)?.detail as Partial<CommittedEvent> | undefined;
  if (!detail || typeof detail !== 'object') return 'no detail';
  if (typeof detail.id !== 'string' || typeof detail.type !== 'string' || typeof detail.shop_id !== 'string')
    return 'no event id, type or shop';
  if (typeof detail.occurred_at !== 'string' || Number.isNaN(Date.parse(detail.occurred_at))) return 'no occurred_at';
  return detail as CommittedEvent;
}
