// A queue consumer that reports every record of its batch as failed, for tests of the twin's queues.
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';

export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  return { batchItemFailures: event.Records.map((record) => ({ itemIdentifier: record.messageId })) };
}
