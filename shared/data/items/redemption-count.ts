// The redemption counter (`REDEEMCOUNT#<reward id>` in the customer's partition): how many times a member
// has redeemed one reward, which a reward's `max_redemptions` is held against; its named writes count a
// redemption within the limit and give one back.
import { tableName } from '../client';
import { namedWrite, type Write } from '../write';
import { customerPk } from './customer-profile';
import { type ItemKey, type ItemType } from './item-type';

export const REDEMPTION_COUNT_PREFIX = 'REDEEMCOUNT#';

export const redemptionCountKey = (shopId: string, customerId: string, rewardId: string): ItemKey => ({
  pk: customerPk(shopId, customerId),
  sk: `${REDEMPTION_COUNT_PREFIX}${rewardId}`,
});

/** The counter's attribute. */
export const REDEMPTIONS = 'redemptions';

/** One more redemption of the reward, only while the member has redeemed it fewer than `max` times. */
export const countRedemption = (shopId: string, customerId: string, rewardId: string, max: number): Write =>
  namedWrite('count a redemption', {
    Update: {
      TableName: tableName(),
      Key: redemptionCountKey(shopId, customerId, rewardId),
      UpdateExpression: 'ADD #count :one',
      ConditionExpression: 'attribute_not_exists(#count) OR #count < :max',
      ExpressionAttributeNames: { '#count': REDEMPTIONS },
      ExpressionAttributeValues: { ':one': 1, ':max': max },
    },
  });

/** One redemption given back (a refunded or undone purchase of a limited reward). */
export const giveRedemptionBack = (shopId: string, customerId: string, rewardId: string): Write =>
  namedWrite('give a redemption back', {
    Update: {
      TableName: tableName(),
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
