// Webhook events by X-Shopify-Event-Id: a delivery claims its event before its effects and marks it done
// after, so the same event delivered again (Shopify delivers at least once, and one event may reach us by
// several subscriptions) has its effects once. A claim is a lease: a processor that died leaves it to
// expire, so the queue's redelivery takes over. Done events are kept a week (the table's TTL), well past
// Shopify's 4 hours of retries and a day-late delivery.
import { randomUUID } from 'node:crypto';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './client';
import { refusalOf } from './dynamodb-errors';
import { webhookEventKey } from './items/webhook-event';
import { TTL_ATTRIBUTE } from './table';

export const WEBHOOK_EVENT_TTL_SECONDS = 7 * 24 * 60 * 60;

/** `claimed`: go on; `done`: already applied; `in_progress`: another delivery of it is being applied now. */
export type EventClaim = 'claimed' | 'done' | 'in_progress';

const epochSeconds = (ms: number) => Math.floor(ms / 1000);

/**
 * Real time, as leases and TTLs are (the domain clock may stand still in the twin). Each claim carries an id,
 * the queue message's when there is one: a claim found with the same id is this delivery's own, left by an
 * answer lost after the write (the SDK's retry is refused by the condition) or by an earlier receive of the same
 * message that failed before it could complete or release the claim. It is taken over, not taken for another
 * delivery's; a claim of another message still holds until its lease runs out.
 */
export async function claimWebhookEvent(
  shopId: string,
  eventId: string,
  leaseMs: number,
  claimId: string = randomUUID(),
  now = Date.now(),
): Promise<EventClaim> {
  try {
    await documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...webhookEventKey(shopId, eventId),
          status: 'in_progress',
          claim_id: claimId,
          lease_until: now + leaseMs,
          [TTL_ATTRIBUTE]: epochSeconds(now) + WEBHOOK_EVENT_TTL_SECONDS,
        },
        ConditionExpression: 'attribute_not_exists(pk) OR (#status = :inProgress AND lease_until < :now)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':inProgress': 'in_progress', ':now': now },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return 'claimed';
  } catch (error) {
    const refusal = refusalOf(error, (item) => item as { status?: string; claim_id?: string });
    // A transaction holding the item: not a refusal of the claim, so nothing can be said of it; the delivery is tried again.
    if (refusal.conflict) throw error;
    const { current } = refusal;
    if (current?.status === 'in_progress' && current.claim_id === claimId) return 'claimed';
    return current?.status === 'done' ? 'done' : 'in_progress';
  }
}

export async function completeWebhookEvent(shopId: string, eventId: string, outcome: string, now = Date.now()): Promise<void> {
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: webhookEventKey(shopId, eventId),
      UpdateExpression: 'SET #status = :done, outcome = :outcome, #ttl = :ttl REMOVE lease_until',
      ExpressionAttributeNames: { '#status': 'status', '#ttl': TTL_ATTRIBUTE },
      ExpressionAttributeValues: { ':done': 'done', ':outcome': outcome, ':ttl': epochSeconds(now) + WEBHOOK_EVENT_TTL_SECONDS },
    }),
  );
}

/** After a failure: the redelivery must be free to apply the event. */
export async function releaseWebhookEvent(shopId: string, eventId: string): Promise<void> {
  await documentClient()
    .send(
      new DeleteCommand({
        TableName: tableName(),
        Key: webhookEventKey(shopId, eventId),
        ConditionExpression: '#status = :inProgress',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':inProgress': 'in_progress' },
      }),
    )
    .catch((error: unknown) => {
      if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
    });
}
