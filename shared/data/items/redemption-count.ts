// The redemption counter (`REDEEMCOUNT#<reward id>` in the customer's partition): how many times a member
// has redeemed one reward, which a reward's `max_redemptions` is held against; its named writes count a
// redemption within the limit and give one back.
import type { Write } from '../write';
import { customerPk } from './customer-profile';
import { defineItem } from './define-item';
import type { ItemKey } from './item-type';

export const REDEMPTION_COUNT_PREFIX = 'REDEEMCOUNT#';

export const redemptionCountKey = (shopId: string, customerId: string, rewardId: string): ItemKey => ({
  pk: customerPk(shopId, customerId),
  sk: `${REDEMPTION_COUNT_PREFIX}${rewardId}`,
});

/** The counter's attribute. */
export const REDEMPTIONS = 'redemptions';

export const redemptionCount = defineItem({
  name: 'redemption counter (max_redemptions)',
  key: redemptionCountKey,
  placeholder: ['<shop>', '<platform id>', '<reward id>'],
});

/** One more redemption of the reward, only while the member has redeemed it fewer than `max` times. */
export const countRedemption = (shopId: string, customerId: string, rewardId: string, max: number): Write =>
  redemptionCount.update('count a redemption', redemptionCountKey(shopId, customerId, rewardId), {
    add: { [REDEMPTIONS]: 1 },
    condition: 'attribute_not_exists(#count) OR #count < :max',
    names: { '#count': REDEMPTIONS },
    values: { ':max': max },
  });

/** One redemption given back (a refunded or undone purchase of a limited reward). */
export const giveRedemptionBack = (shopId: string, customerId: string, rewardId: string): Write =>
  redemptionCount.update('give a redemption back', redemptionCountKey(shopId, customerId, rewardId), { add: { [REDEMPTIONS]: -1 } });
