// The points write: new balance and its audit entry in one conditional transaction.
import type { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { CustomerRecord } from '../domain/customer';
import type { EarningEntry } from '../domain/history';
import { documentClient, tableName } from './client';
import { cancellationReasons, memberProfilePut, storedCustomerOf, type StoredCustomer } from './customer-repository';
import { earningEntryItem } from './history-repository';

export type PointsWriteResult =
  | { written: true }
  /** `latest`: the profile as it is now, when DynamoDB returned it with the refusal (saves a read). */
  | { written: false; latest: StoredCustomer | null };

/**
 * Writes the customer's new figures and the earning-history entry together, only if the profile is
 * still at the version that was read and the customer is still a member. When another write got in
 * first nothing is written and the caller retries from `latest`.
 */
export async function writePointsChange(current: StoredCustomer, next: CustomerRecord, entry: EarningEntry): Promise<PointsWriteResult> {
  try {
    await documentClient().send(
      new TransactWriteCommand({
        // The SDK retries a call whose answer was lost; the token makes that retry a no-op instead of a
        // refused condition that would look like a lost race and apply the change a second time.
        ClientRequestToken: entry.id,
        TransactItems: [
          // The profile as it is now comes back with a refusal, which saves the retry a read.
          { Put: { ...memberProfilePut(current, next).Put!, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } },
          {
            Put: {
              TableName: tableName(),
              Item: earningEntryItem(next.shop_id, next.platform_customer_id, entry),
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ],
      }),
    );
    return { written: true };
  } catch (error) {
    const reasons = cancellationReasons(error);
    if (reasons && reasons.some((code) => code === 'ConditionalCheckFailed' || code === 'TransactionConflict')) {
      const old = (error as TransactionCanceledException).CancellationReasons?.[0]?.Item;
      return { written: false, latest: reasons[0] === 'ConditionalCheckFailed' && old ? storedCustomerOf(unmarshall(old)) : null };
    }
    if ((error as { name?: string }).name === 'TransactionConflictException') return { written: false, latest: null };
    throw error;
  }
}
