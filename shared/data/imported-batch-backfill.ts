// Imported balances' batches written before they sat on the ledger's given-at local index (`BATCH#…` items
// without `earn_given_at`, from a `config apply` of an earlier release): each put on it, so the member's page
// and Klaviyo profile show it as the points expiring next (docs/points-calendar.md). The items have no index
// of their own, so this is a Scan of the table filtered to them; each is one conditional UpdateItem that sets
// only the index attribute. Safe to stop and run again: an item already on the index is not written.
import { ScanCommand, type ScanCommandOutput } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './client';
import { commitOne } from './commit';
import { BATCH_PREFIX, placeImportedBatchOnLedger } from './items/import-batch';

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
      const outcome = await commitOne(placeImportedBatchOnLedger({ pk: String(item.pk), sk: String(item.sk) }));
      if (outcome.committed) updated += 1;
      else if (outcome.refusal.kind === 'conflict') throw new Error(`The imported batch ${String(item.sk)} met another transaction`);
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return { updated };
}
