// Imported balances' batches written before they sat on the ledger's given-at local index (`BATCH#…` items
// without `earn_given_at`, from a `config apply` of an earlier release): each put on it, so the member's page
// and Klaviyo profile show it as the points expiring next (docs/points-calendar.md). The items have no index
// of their own, so this is a Scan of the table filtered to them; each is one conditional UpdateItem that sets
// only the index attribute. Safe to stop and run again: an item already on the index is not written.
import { ScanCommand, type ScanCommandOutput, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './client';
import { isConditionalCheckFailed } from './dynamodb-errors';
import { BATCH_PREFIX, IMPORTED_BATCH_GIVEN_AT } from './items/import-batch';

export async function backfillImportedBatches(): Promise<{ updated: number }> {
  let updated = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page: ScanCommandOutput = await documentClient().send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression: 'begins_with(sk, :batch) AND attribute_not_exists(earn_given_at)',
        ProjectionExpression: 'pk, sk',
        ExpressionAttributeValues: { ':batch': BATCH_PREFIX },
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) {
      try {
        await documentClient().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: { pk: item.pk, sk: item.sk },
            UpdateExpression: 'SET earn_given_at = :given',
            // Still there (a merge may have moved it meanwhile) and not on the index yet.
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(earn_given_at)',
            ExpressionAttributeValues: { ':given': IMPORTED_BATCH_GIVEN_AT },
          }),
        );
        updated += 1;
      } catch (error) {
        if (!isConditionalCheckFailed(error)) throw error;
      }
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return { updated };
}
