// Referral points: when a referred member's first paid order counts, every active referral rule awards the
// referrer, approved at once, in the referrer's own transaction with a guard that makes it once per
// referred customer. Self-referrals and referrers who are not members award nothing.
import { getCustomer } from '../data/customer-repository';
import { writeReferralAward } from '../data/order-repository';
import { approvedEntry, type EarningEntry } from '../domain/history';
import { failed } from '../domain/errors';
import { movePoints, tierProgramOf } from '../domain/member-points';
import { DEFAULT_EARNING_SETTINGS, type ShopCatalog } from '../domain/shop';
import { giveBatches } from '../domain/points-ledger';
import { resolveTier } from '../domain/tiers';
import { withMemberFacts } from '../domain/events';
import type { DomainEvent } from '../domain/events';
import { activeCampaign, earningRulePoints } from '../domain/earning-rule-points';
import { now as clockNow } from '../runtime/clock';
import { CONTENTION_BACKOFF, retryUntil } from '../runtime/retry';
import { orderEntryId } from './order-state';

export type ReferralOutcome = 'awarded' | 'already_awarded' | 'no_rule' | 'self_referral' | 'referrer_not_member';

const MAX_ATTEMPTS = 60;

/** The award to a referrer known by id (a referred friend's code names its referral's member). */
export async function awardReferrer(shop: ShopCatalog, referredId: string, referrerId: string, orderId: string): Promise<ReferralOutcome> {
  const shopId = shop.settings.id;
  const rules = shop.earningRules.filter((rule) => rule.is_active && rule.action === 'referral');
  if (rules.length === 0) return 'no_rule';
  if (referrerId === referredId) return 'self_referral';

  const outcome = await retryUntil(MAX_ATTEMPTS, CONTENTION_BACKOFF, async (): Promise<ReferralOutcome | undefined> => {
    const referrer = await getCustomer(shopId, referrerId, true);
    if (!referrer || referrer.record.status !== 'member') return 'referrer_not_member';
    const at = clockNow();
    const now = at.toISOString();
    const context = {
      tier: resolveTier(referrer.record, shop.tiers, shop.settings.vip_settings),
      campaign: activeCampaign(shop.campaigns, at),
      vipSettings: shop.settings.vip_settings,
    };
    const entries: EarningEntry[] = rules.map((rule) => {
      const priced = earningRulePoints(rule, context);
      return approvedEntry(
        {
          id: orderEntryId(shopId, `referral:${referredId}`, rule.id, 0),
          earning_rule_id: rule.id,
          action: 'referral',
          points: priced.points,
          base_points: priced.base_points,
          points_multiplier: (priced.tier_boost ?? 1) * (priced.campaign_boost ?? 1),
          order_id: orderId,
        },
        now,
      );
    });
    const points = entries.reduce((sum, entry) => sum + entry.points, 0);
    const move = movePoints(referrer.record, { points, lifetime: points, send_email: true, now }, tierProgramOf(shop));
    const ledger = giveBatches(referrer.record, move.next, entries, shop.settings.earning_settings ?? DEFAULT_EARNING_SETTINGS, now);
    const next = ledger.record;
    const base = { shop_id: shopId, customer_id: referrerId, occurred_at: now };
    // Approved entries created directly: `points.earned` (EVENTS-CONTRACT.md), with the fields of today's event.
    const events: DomainEvent[] = [
      ...entries.map((entry): DomainEvent => ({
        type: 'points.earned',
        ...base,
        earning_history_entry_id: entry.id,
        action: 'referral',
        points: entry.points,
      })),
      { type: 'referral.completed', ...base, referred_customer_id: referredId, order_id: orderId, points },
      ...move.events,
    ];
    const written = await writeReferralAward(
      referrer,
      next,
      referredId,
      orderId,
      ledger.entries,
      withMemberFacts(events, next, shop.tiers),
    );
    if (written === 'conflict') return undefined;
    if (written === 'already_awarded') return 'already_awarded';
    return 'awarded';
  });
  if (outcome === undefined) throw failed(`The referral award for customer ${referredId} could not be written`);
  return outcome;
}
