// The redemption counter (`REDEEMCOUNT#<reward id>` in the customer's partition): how many times a member
// has redeemed one reward, which a reward's `max_redemptions` is held against.
import { customerPk } from './customer-profile';
import { type ItemKey, type ItemType } from './item-type';

export const REDEMPTION_COUNT_PREFIX = 'REDEEMCOUNT#';

export const redemptionCountKey = (shopId: string, customerId: string, rewardId: string): ItemKey => ({
  pk: customerPk(shopId, customerId),
  sk: `${REDEMPTION_COUNT_PREFIX}${rewardId}`,
});

/** The counter's attribute. */
export const REDEMPTIONS = 'redemptions';

/** The update of a transaction that gives one redemption back (a refunded or undone purchase of a limited reward). */
export const redemptionGivenBack = (tableName: string, shopId: string, customerId: string, rewardId: string) => ({
  Update: {
    TableName: tableName,
    Key: redemptionCountKey(shopId, customerId, rewardId),
    UpdateExpression: 'ADD #count :minus',
    ExpressionAttributeNames: { '#count': REDEMPTIONS },
    ExpressionAttributeValues: { ':minus': -1 },
  },
});

export const redemptionCountType: ItemType = {
  name: 'redemption counter (max_redemptions)',
  key: redemptionCountKey('<shop>', '<platform id>', '<reward id>'),
};
