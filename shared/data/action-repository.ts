// The award of an action rule (POST /v1/customers/{identifier}/actions): one transaction that increments
// the member's counter for the rule's current period only while it stays within the limit, writes the
// member's new figures only while the profile is at the version read (and a member), and puts the approved
// entry only if it does not exist. Past the limit nothing is written, however many requests race: the
// counter's condition, not a read before the write, is what refuses them.
import { randomUUID } from 'node:crypto';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { CustomerRecord } from '../domain/customer';
import type { EarningEntry } from '../domain/history';
import { documentClient, tableName } from './client';
import { cancellationReasons, cancelledItem, isTransactionConflict } from './dynamodb-errors';
import { ACTION_COUNT, actionCountKey, actionCountTtl } from './items/action-count';
import { storedCustomerOf, type StoredCustomer } from './items/customer-profile';
import { earningEntryItem } from './items/earning-entry';
import { TTL_ATTRIBUTE } from './table';
import { memberProfilePut } from './transactions';

export interface ActionAwardWrite {
  /** The profile as read, and its figures after the award. */
  customer: { current: StoredCustomer; next: CustomerRecord };
  entry: EarningEntry;
  /** The rule's counter for the period the award falls in, and the limit it must stay within. */
  counter: { ruleId: string; period: string; endsAt: string | null; times: number };
}

export type ActionAwardOutcome =
  | { written: true }
  /** The counter is at the limit: nothing was written. */
  | { written: false; reason: 'limit_reached' }
  /** The entry exists: this award was written before (a retry of the same request). */
  | { written: false; reason: 'already_written' }
  /** The profile changed since it was read (`current`: as it is now, null when gone), or another transaction held an item. */
  | { written: false; reason: 'changed'; current: StoredCustomer | null }
  | { written: false; reason: 'conflict' };

export async function writeActionAward(write: ActionAwardWrite): Promise<ActionAwardOutcome> {
  const { current, next } = write.customer;
  const { ruleId, period, endsAt, times } = write.counter;
  const shopId = next.shop_id;
  const customerId = next.platform_customer_id;
  const ttl = actionCountTtl(endsAt);
  const profile = memberProfilePut(current, next);
  try {
    await documentClient().send(
      new TransactWriteCommand({
        // One token per attempt: the SDK's retry of a call whose answer was lost is then a no-op, not a refusal.
        ClientRequestToken: randomUUID(),
        TransactItems: [
          {
            Update: {
              TableName: tableName(),
              Key: actionCountKey(shopId, customerId, ruleId, period),
              UpdateExpression: `ADD #count :one${ttl === null ? '' : ' SET #ttl = :ttl'}`,
              ConditionExpression: 'attribute_not_exists(#count) OR #count < :times',
              ExpressionAttributeNames: { '#count': ACTION_COUNT, ...(ttl === null ? {} : { '#ttl': TTL_ATTRIBUTE }) },
              ExpressionAttributeValues: { ':one': 1, ':times': times, ...(ttl === null ? {} : { ':ttl': ttl }) },
            },
          },
          // The profile as it is now comes back with a refusal: the next attempt needs no read.
          { Put: { ...profile.Put!, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } },
          {
            Put: {
              TableName: tableName(),
              Item: earningEntryItem(shopId, customerId, write.entry),
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ],
      }),
    );
    return { written: true };
  } catch (error) {
    const reasons = cancellationReasons(error);
    if (reasons?.[2] === 'ConditionalCheckFailed') return { written: false, reason: 'already_written' };
    if (reasons?.[0] === 'ConditionalCheckFailed') return { written: false, reason: 'limit_reached' };
    if (reasons?.[1] === 'ConditionalCheckFailed') {
      const old = cancelledItem(error, 1);
      return { written: false, reason: 'changed', current: old ? storedCustomerOf(old) : null };
    }
    if (isTransactionConflict(error)) return { written: false, reason: 'conflict' };
    throw error;
  }
}
