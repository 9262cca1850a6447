// The action counter (`ACTIONCOUNT#<rule id>#<period>` in the customer's partition): how many times a member
// has earned one action rule in one period of its limit (`lifetime`, `day#2025-05-17`, `week#2025-W20`,
// `month#2025-05`, `year#2025`). An award increments it in the award's own transaction, conditional on
// staying within the limit. A calendar period's counter leaves through the table's TTL a week after the
// period; the lifetime counter stays. Its named write counts an award within the limit.
import { TTL_ATTRIBUTE } from '../table';
import type { Write } from '../write';
import { customerPk } from './customer-profile';
import { defineItem } from './define-item';
import type { ItemKey } from './item-type';

export const ACTION_COUNT_PREFIX = 'ACTIONCOUNT#';

export const actionCountKey = (shopId: string, customerId: string, ruleId: string, period: string): ItemKey => ({
  pk: customerPk(shopId, customerId),
  sk: `${ACTION_COUNT_PREFIX}${ruleId}#${period}`,
});

/** The counter's attribute. */
export const ACTION_COUNT = 'awards';

/** How long a calendar period's counter outlives its period before the TTL removes it. */
const KEPT_AFTER_PERIOD_MS = 7 * 86_400_000;

/** The counter's TTL (epoch seconds) for a period ending at `endsAt`; none for the lifetime. */
export function actionCountTtl(endsAt: string | null): number | null {
  return endsAt === null ? null : Math.floor((Date.parse(endsAt) + KEPT_AFTER_PERIOD_MS) / 1000);
}

export const actionCount = defineItem({
  name: "action counter (an action rule's limit, per period)",
  key: actionCountKey,
  placeholder: ['<shop>', '<platform id>', '<rule id>', '<period>'],
  indexed: [TTL_ATTRIBUTE],
  derived: [TTL_ATTRIBUTE],
});

/**
 * One more award of the rule in the period ending at `endsAt` (null: the lifetime), only while the member
 * has earned it fewer than `times` times in it; a calendar period's counter carries its TTL.
 */
export function countActionAward(
  shopId: string,
  customerId: string,
  counter: { ruleId: string; period: string; endsAt: string | null; times: number },
): Write {
  const ttl = actionCountTtl(counter.endsAt);
  return actionCount.update('count an action award', actionCountKey(shopId, customerId, counter.ruleId, counter.period), {
    add: { [ACTION_COUNT]: 1 },
    ...(ttl === null ? {} : { set: { [TTL_ATTRIBUTE]: ttl } }),
    condition: 'attribute_not_exists(#count) OR #count < :times',
    names: { '#count': ACTION_COUNT },
    values: { ':times': counter.times },
  });
}
