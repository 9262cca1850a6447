// Manual points adjustment: balance floored at zero, tier recalculated, audit entry in the earning
// history, all in one conditional transaction retried on a lost race; events after the commit.
import { randomUUID } from 'node:crypto';
import { getCustomer } from '../data/customer-repository';
import { writePointsChange } from '../data/points-repository';
import { nowIso } from '../runtime/clock';
import { approvedEntry, type EarningEntry } from '../domain/history';
import { giveBatches, withActivity } from '../domain/points-ledger';
import { DEFAULT_EARNING_SETTINGS } from '../domain/shop';
import type { ShopCatalog } from '../domain/shop';
import { resolveCustomer } from '../customers/customer-service';
import { type DomainEvent, publishAfterCommit } from '../events/domain-events';
import { customerNotFound, DOMAIN_DETAILS, failed, notPermitted } from '../domain/errors';
import { countMetric } from '../observability/powertools';
import { CONTENTION_BACKOFF, retryUntil } from '../runtime/retry';
import { computePointsChange, type PointsChange } from './points-change';
import type { AdjustPointsInput } from './points-requests';

/** The `action` of the earning-history entry a manual adjustment writes. */
export const MANUAL_ADJUSTMENT_ACTION = 'manual_adjustment';

// Enough for 50+ simultaneous adjustments of one customer: each round lets at least one through.
const MAX_ATTEMPTS = 120;

export interface PointsAdjustment {
  customerId: string;
  change: PointsChange;
}

export async function adjustPoints(
  shop: ShopCatalog,
  identifier: string,
  input: AdjustPointsInput,
  { maxAttempts = MAX_ATTEMPTS }: { maxAttempts?: number } = {},
): Promise<PointsAdjustment> {
  const shopId = shop.settings.id;
  let current = await resolveCustomer(shopId, identifier);
  const customerId = current.record.platform_customer_id;

  const adjusted = await retryUntil(maxAttempts, CONTENTION_BACKOFF, async (): Promise<PointsAdjustment | undefined> => {
    if (current.record.status === 'excluded') throw notPermitted(DOMAIN_DETAILS.customerExcluded);
    const now = nowIso();
    const change = computePointsChange(current.record, input, shop.tiers, shop.settings.vip_settings, now);
    const entry: EarningEntry & Record<string, unknown> = {
      ...approvedEntry(
        {
          id: randomUUID(),
          earning_rule_id: null,
          action: MANUAL_ADJUSTMENT_ACTION,
          points: change.applied,
          base_points: change.applied,
          points_multiplier: 1,
        },
        now,
      ),
      // Audit details: kept on the entry, not part of the history API's fields.
      note: input.note,
      requested_adjustment: input.adjustment,
      update_lifetime_points: input.update_lifetime_points,
      send_email: input.send_email,
    };

    // A positive adjustment is a batch of its own; a negative one is spending (points-ledger.ts).
    const settings = shop.settings.earning_settings ?? DEFAULT_EARNING_SETTINGS;
    const ledger =
      change.applied > 0
        ? giveBatches(current.record, change.next, [entry], settings, now)
        : { record: change.applied < 0 ? withActivity(change.next, settings, now) : change.next, entries: [entry] };
    const result = await writePointsChange(current, ledger.record, ledger.entries[0]!);
    if (result.written) {
      await publishAfterCommit(eventsOf(shopId, customerId, input, change, entry.id, now));
      countMetric('PointsAdjusted');
      return { customerId, change };
    }
    const fresh = result.latest ?? (await getCustomer(shopId, customerId, true));
    if (!fresh) throw customerNotFound(identifier);
    current = fresh;
    return undefined;
  });
  if (adjusted) return adjusted;
  throw failed('The points adjustment could not be applied. Please try again.');
}

function eventsOf(
  shopId: string,
  customerId: string,
  input: AdjustPointsInput,
  change: PointsChange,
  entryId: string,
  now: string,
): DomainEvent[] {
  const events: DomainEvent[] = [
    {
      type: 'points.adjusted',
      shop_id: shopId,
      customer_id: customerId,
      requested_adjustment: input.adjustment,
      adjustment: change.applied,
      points_before: change.before,
      points_after: change.after,
      lifetime_points: change.next.lifetime_points,
      earning_history_entry_id: entryId,
      send_email: input.send_email,
      occurred_at: now,
    },
  ];
  const from = change.tierBefore?.id ?? null;
  const to = change.tierAfter?.id ?? null;
  if (from !== to) {
    events.push({
      type: 'tier.changed',
      shop_id: shopId,
      customer_id: customerId,
      from_tier_id: from,
      to_tier_id: to,
      send_email: input.send_email,
      occurred_at: now,
    });
  }
  return events;
}
