// Drives the platform simulator's order controls (EARNING-CONTRACT.md) and reads what the engine stored,
// for the earning engine's end-to-end tests.
import { createHmac } from 'node:crypto';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Twin } from '../../infra/local/twin';
import { documentClient, tableName } from '../../shared/data/client';
import { keys } from '../../shared/data/keys';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON
type Json = any;

async function call(url: string, method: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const response = await fetch(url, {
    method,
    ...(body !== undefined ? { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

export function platformControls(twin: Twin) {
  const at = (path: string) => `${twin.platformUrl}${path}`;
  const change = async (orderId: string | number, action: 'cancel' | 'pay' | 'void', deliver: boolean) => {
    const answer = await call(at(`/_orders/${orderId}/${action}`), 'POST', { deliver });
    if (answer.status !== 200) throw new Error(`${action} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    return answer.body as { order: Json; webhook: { id: string; status: number | null } | null };
  };
  return {
    order: async (fields: Record<string, unknown>) => {
      const answer = await call(at('/_orders'), 'POST', fields);
      if (answer.status !== 201) throw new Error(`POST /_orders answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      return answer.body as { order: Json; webhook: { id: string; status: number | null } | null };
    },
    refund: async (orderId: string | number, subtotal: string, deliver = true) => {
      const answer = await call(at(`/_orders/${orderId}/refunds`), 'POST', { subtotal, deliver });
      if (answer.status !== 201) throw new Error(`refund answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      return answer.body as { refund: Json; order: Json; webhook: { id: string; status: number | null } | null };
    },
    /** Refunds whole units of lines: `index` is the line's position in the order's line_items. */
    refundLines: async (orderId: string | number, lines: Array<{ index: number; quantity: number }>, deliver = true) => {
      const answer = await call(at(`/_orders/${orderId}/refunds`), 'POST', { line_items: lines, deliver });
      if (answer.status !== 201) throw new Error(`refund answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      return answer.body as { refund: Json; order: Json; webhook: { id: string; status: number | null } | null };
    },
    /**
     * A refund as the simulator takes it: an amount of the subtotal, whole units of lines, and/or `amount`, the
     * money refunded when it is not the lines' (the difference a refund_discrepancy order adjustment).
     */
    refundWith: async (
      orderId: string | number,
      body: { subtotal?: string; line_items?: Array<{ index: number; quantity: number }>; amount?: string; deliver?: boolean },
    ) => {
      const answer = await call(at(`/_orders/${orderId}/refunds`), 'POST', body);
      if (answer.status !== 201) throw new Error(`refund answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      return answer.body as { refund: Json; order: Json; webhook: { id: string; status: number | null } | null };
    },
    cancel: (orderId: string | number, deliver = true) => change(orderId, 'cancel', deliver),
    /** A pending, authorized or partially paid order becomes paid (orders/paid). */
    pay: (orderId: string | number, deliver = true) => change(orderId, 'pay', deliver),
    /** A pending or authorized order is voided (orders/updated). */
    void: (orderId: string | number, deliver = true) => change(orderId, 'void', deliver),
    redeliver: async (webhookId: string) =>
      (await call(at(`/_webhooks/${webhookId}/redeliver`), 'POST')).body.webhook as { id: string; status: number | null },
    webhooks: async () => (await call(at('/_webhooks'), 'GET')).body.webhooks as Json[],
  };
}

/** Posts a body to the twin's webhook endpoint with the headers given (signed or forged). */
export async function postWebhook(twin: Twin, body: string, headers: Record<string, string>): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${twin.url}/webhooks/shopify`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body,
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** Shopify's headers for a body signed with `secret`. */
export function signedHeaders(body: string, secret: string, domain: string, topic: string): Record<string, string> {
  return {
    'X-Shopify-Topic': topic,
    'X-Shopify-Hmac-Sha256': createHmac('sha256', secret).update(body, 'utf8').digest('base64'),
    'X-Shopify-Shop-Domain': domain,
    'X-Shopify-Webhook-Id': `test-${Math.random()}`,
    'X-Shopify-Triggered-At': new Date().toISOString(),
  };
}

/** Every item of a customer's partition (profile, entries, orders). */
export async function customerItems(shopId: string, customerId: string): Promise<Json[]> {
  const result = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.customerPk(shopId, customerId) },
    }),
  );
  return result.Items ?? [];
}

export async function profileOf(shopId: string, customerId: string): Promise<Json> {
  return (
    await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.customer(shopId, customerId), ConsistentRead: true }))
  ).Item;
}

/** The shop's order-reconciliation watermark item, or undefined while no job run has set one. */
export async function orderWatermarkItem(shopId: string): Promise<Json> {
  return (await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.orderWatermark(shopId), ConsistentRead: true })))
    .Item;
}

export const earningEntries = async (shopId: string, customerId: string) =>
  (await customerItems(shopId, customerId)).filter((item) => String(item.sk).startsWith('EARN#'));
export const orderItems = async (shopId: string, customerId: string) =>
  (await customerItems(shopId, customerId)).filter((item) => String(item.sk).startsWith('ORDER#'));
