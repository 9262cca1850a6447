// Fed by the table's DynamoDB stream, filtered to API key items: any change of a key (revoke, scope,
// delete, `config apply`, a hand edit) flushes the stage's authorizer cache, so revocation holds with
// the cache on. A failed flush throws: the event source retries, then records the batch on its queue.
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { flushStageAuthorizerCache } from '../../shared/outbound/authorizer-cache';
import { eventHandler } from '../../shared/observability/event-handler';
import { logger } from '../../shared/observability/powertools';

/** The flusher's work: one flush for a batch of key changes. */
export async function authorizerCacheFlusher(event: DynamoDBStreamEvent): Promise<void> {
  // One flush covers the whole batch: the cache is flushed per stage, never per key.
  const stage = await flushStageAuthorizerCache();
  logger.info('Authorizer cache flushed', { ...stage, keyChanges: event.Records.length });
}

export const handler = eventHandler(authorizerCacheFlusher);
