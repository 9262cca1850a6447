// The twin runs the cloud's event delivery function itself: each batch the stream reader takes from DynamoDB
// Local is handed to the manifest's delivery handler as Lambda's DynamoDB stream event, and its answer (the
// batch item failure, if any) tells the reader where to read again. Only the records the cloud's filter lets
// through reach it (the insertion of a domain event item); the others are passed over, as the filter does.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { _Record as StreamRecord } from '@aws-sdk/client-dynamodb-streams';
import type { Context, DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { DOMAIN_EVENT_PREFIX } from '../../shared/data/items/domain-event';
import type { EntryPoint } from '../../shared/runtime/entry-points';
import { lambdaContext } from './gateway';
import type { DeliverBatch } from './twin-event-stream';

type StreamHandler = (event: DynamoDBStreamEvent, context: Context) => Promise<DynamoDBBatchResponse>;

const TIMEOUT_SECONDS = 60;

export function streamDelivery(root: string, entry: EntryPoint): DeliverBatch {
  let module: Promise<{ handler: unknown }> | undefined;
  return async (records: readonly StreamRecord[]) => {
    module ??= import(join(root, entry.handler)) as Promise<{ handler: unknown }>;
    // The event source mapping's filter: the insertion of a domain event item, nothing else reaches the function.
    const inserts = records.filter(
      (record) => record.eventName === 'INSERT' && record.dynamodb?.Keys?.pk?.S?.startsWith(DOMAIN_EVENT_PREFIX) === true,
    );
    if (inserts.length === 0) return null;
    const handler = (await module).handler as StreamHandler;
    const event = {
      Records: inserts.map((record) => ({
        eventID: record.eventID,
        eventName: record.eventName,
        eventSource: 'aws:dynamodb',
        awsRegion: 'local',
        dynamodb: {
          ...record.dynamodb,
          ApproximateCreationDateTime: record.dynamodb?.ApproximateCreationDateTime
            ? record.dynamodb.ApproximateCreationDateTime.getTime() / 1000
            : undefined,
        },
      })),
    } as unknown as DynamoDBStreamEvent;
    try {
      const answer = await handler(event, lambdaContext(entry.name, randomUUID(), TIMEOUT_SECONDS));
      return answer.batchItemFailures[0]?.itemIdentifier ?? null;
    } catch (error) {
      console.error(JSON.stringify({ level: 'ERROR', message: 'Event delivery failed', error: String(error) }));
      return inserts[0]!.dynamodb?.SequenceNumber ?? null;
    }
  };
}
