// Earning by action (POST /v1/customers/{identifier}/actions): the shop's active rule of that action awards
// its points as GET /v1/earning-rules prices them for the member at this moment (the same pricing), as an
// approved entry, within the rule's limit. One transaction increments the member's counter for the limit's
// period (only while under the limit), moves the member's points (member-points.ts: balance, lifetime
// points, tier; a batch of its own in batch expiry mode) and puts the entry. Concurrent requests past the
// limit are refused by the counter's condition, never by a count read before writing.
import { randomUUID } from 'node:crypto';
import { writeActionAward } from '../data/action-repository';
import { getEarningEntry } from '../data/history-repository';
import { resolveCustomer } from '../customers/customer-service';
import { actionLimitOf, describeLimit, isEngineAction, limitPeriod } from '../domain/action-limit';
import { customerNotFound, DOMAIN_DETAILS, failed, notPermitted, unprocessable } from '../domain/errors';
import { approvedEntry, type EarningEntry, type RequestActor } from '../domain/history';
import type { CustomerRecord } from '../domain/customer';
import { movePoints, tierProgramOf } from '../domain/member-points';
import { giveBatches } from '../domain/points-ledger';
import { DEFAULT_EARNING_SETTINGS, type EarningRule, type ShopCatalog } from '../domain/shop';
import { type DomainEvent, memberFacts } from '../domain/events';
import { earningRuleContext, earningRulePoints } from '../domain/earning-rule-points';
import { now as clockNow } from '../runtime/clock';
import { CONTENTION_BACKOFF, backoffDelay, retryUntil } from '../runtime/retry';

/** Rounds of one request: a refusal by a changed profile returns it, so a round costs one call. */
const MAX_ATTEMPTS = 60;

export interface ActionAward {
  customerId: string;
  entry: EarningEntry;
}

/** The rule a request for `action` earns: the shop's active rule of that action, never one the engine awards. */
export function actionRule(shop: ShopCatalog, action: string): EarningRule {
  if (isEngineAction(action)) {
    throw unprocessable('Invalid Action', `'${action}' points are awarded by the earning engine, not through actions`);
  }
  const rules = shop.earningRules.filter((rule) => rule.action === action);
  const active = rules.find((rule) => rule.is_active);
  if (active) return active;
  throw unprocessable('Invalid Action', rules.length > 0 ? `Action '${action}' is not active` : `Unknown action '${action}'`);
}

export async function earnAction(
  shop: ShopCatalog,
  identifier: string,
  action: string,
  {
    requestId = randomUUID(),
    replayable = false,
    actor,
  }: {
    /** The entry's id: under an Idempotency-Key every attempt of one request has the same, so it is written once. */
    requestId?: string;
    /** The id comes from an Idempotency-Key: an earlier attempt of this request may have written the entry. */
    replayable?: boolean;
    /** Who recorded the action (an API key on /v1, a staff user on /admin/api), kept on the entry. */
    actor?: RequestActor;
  } = {},
): Promise<ActionAward> {
  const shopId = shop.settings.id;
  // By platform id a consistent read; by e-mail the index, whose copy may lag: the write then is refused
  // with the profile as it is, and the next round starts from that.
  let stored: Awaited<ReturnType<typeof resolveCustomer>> | null = await resolveCustomer(shopId, identifier, true);
  const customerId = stored.record.platform_customer_id;
  if (stored.record.status !== 'member') throw notPermitted(DOMAIN_DETAILS.customerExcluded);
  const rule = actionRule(shop, action);
  const limit = actionLimitOf(rule);

  const written = async (): Promise<ActionAward> => {
    const entry = await getEarningEntry(shopId, customerId, requestId, true);
    if (!entry) throw new Error(`Action award ${requestId} reported written, but its entry is missing`);
    return { customerId, entry };
  };
  const refused = async (): Promise<ActionAward> => {
    // A retry of a request that was awarded (its answer lost) finds its own entry, not a limit.
    if (replayable) {
      const entry = await getEarningEntry(shopId, customerId, requestId, true);
      if (entry) return { customerId, entry };
    }
    throw unprocessable('Action Limit Reached', `Customer has reached the limit of '${action}': ${describeLimit(limit)}`);
  };

  let conflicts = 0;
  let wait = false;
  const award = await retryUntil(
    MAX_ATTEMPTS,
    () => (wait ? backoffDelay((conflicts += 1), CONTENTION_BACKOFF) : 0),
    async (): Promise<ActionAward | undefined> => {
      wait = false;
      if (!stored) throw customerNotFound(identifier);
      const record = stored.record;
      if (record.status !== 'member') throw notPermitted(DOMAIN_DETAILS.customerExcluded);
      const at = clockNow();
      const { ledger, events } = plannedAward(shop, record, { rule, requestId, actor, at });
      const period = limitPeriod(limit, at);
      const outcome = await writeActionAward(
        {
          customer: { current: stored, next: ledger.record },
          entry: ledger.entries[0]!,
          counter: { ruleId: rule.id, period: period.key, endsAt: period.endsAt, times: limit.times },
        },
        events,
      );
      if (outcome.written) return { customerId, entry: ledger.entries[0]! };
      if (outcome.reason === 'limit_reached') return refused();
      if (outcome.reason === 'already_written') return written();
      if (outcome.reason === 'changed') {
        stored = outcome.current;
        return undefined;
      }
      wait = true;
      return undefined;
    },
  );
  if (!award) throw failed('The action could not be recorded. Please try again.');
  return award;
}

/** The award priced for the member now (tier, campaign), its batches given and its events, each with the member as the award leaves it. */
function plannedAward(
  shop: ShopCatalog,
  record: CustomerRecord,
  { rule, requestId, actor, at }: { rule: ReturnType<typeof actionRule>; requestId: string; actor: RequestActor | undefined; at: Date },
) {
  const now = at.toISOString();
  const priced = earningRulePoints(rule, earningRuleContext(shop, record, at));
  const entry = approvedEntry(
    {
      id: requestId,
      earning_rule_id: rule.id,
      action: rule.action,
      points: priced.points,
      base_points: priced.base_points,
      points_multiplier: (priced.tier_boost ?? 1) * (priced.campaign_boost ?? 1),
      ...(actor ? { actor } : {}),
    },
    now,
  );
  const move = movePoints(record, { points: priced.points, lifetime: priced.points, send_email: true, now }, tierProgramOf(shop));
  const ledger = giveBatches(record, move.next, [entry], shop.settings.earning_settings ?? DEFAULT_EARNING_SETTINGS, now);
  const facts = memberFacts(ledger.record, shop.tiers);
  const base = { shop_id: shop.settings.id, customer_id: record.platform_customer_id, occurred_at: now };
  const events = (
    [
      { type: 'points.earned' as const, ...base, earning_history_entry_id: entry.id, action: rule.action, points: entry.points },
      ...move.events,
    ] as DomainEvent[]
  ).map((event): DomainEvent => ({ ...event, ...facts }));
  return { ledger, events };
}
