// POST /webhooks/shopify: verifies Shopify's HMAC and queues the delivery (no API key: the signature is the
// authentication). 401 in the envelope for anything unsigned or unknown, 200 {} once queued.
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { envelope } from '../../shared/http/errors';
import { jsonResponse } from '../../shared/http/handler';
import { headerValue } from '../../shared/http/headers';
import { eventHandler } from '../../shared/observability/event-handler';
import { receiveWebhook } from '../../shared/webhooks/receive-webhook';

const UNSIGNED = 'Webhook signature could not be verified';

export const handler = eventHandler(async (event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> => {
  const header = (name: string) => headerValue(event.headers, name);
  const body = event.body === null || event.body === undefined ? null : Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
  const outcome = await receiveWebhook({
    topic: header('X-Shopify-Topic'),
    hmac: header('X-Shopify-Hmac-Sha256'),
    shopDomain: header('X-Shopify-Shop-Domain'),
    webhookId: header('X-Shopify-Webhook-Id'),
    eventId: header('X-Shopify-Event-Id'),
    triggeredAt: header('X-Shopify-Triggered-At'),
    body,
  });
  return outcome.accepted ? jsonResponse(200, {}) : jsonResponse(401, envelope(401, UNSIGNED));
});
