// The payloads of Shopify's mandatory privacy webhooks (customers/redact, customers/data_request, shop/redact)
// as the fields the erasure and the data request use; a payload that breaks them is reported path by path.
import * as z from 'zod/mini';
import { PlatformPayloadError } from './port';
import { numericId, parsePayload } from './webhook-payload-fields';

/** Whom a request is about: Shopify names the customer by id and, in some requests, only by e-mail. */
export interface PrivacyCustomer {
  id: string | null;
  email: string | null;
}

export interface CustomerPrivacyRequest {
  shopDomain: string;
  customer: PrivacyCustomer;
  /** customers/redact: orders_to_redact; customers/data_request: orders_requested. */
  orderIds: string[];
  /** customers/data_request only. */
  dataRequestId: string | null;
}

export interface ShopRedactRequest {
  shopDomain: string;
  shopId: string | null;
}

const customerSchema = z.object({
  id: z.optional(z.nullable(numericId)),
  email: z.optional(z.nullable(z.string())),
  phone: z.optional(z.nullable(z.string())),
});

const customerRequestSchema = z.object({
  shop_domain: z.string().check(z.minLength(1)),
  customer: customerSchema,
  orders_to_redact: z.optional(z.nullable(z.array(numericId))),
  orders_requested: z.optional(z.nullable(z.array(numericId))),
  data_request: z.optional(z.nullable(z.object({ id: numericId }))),
});

const shopRedactSchema = z.object({
  shop_domain: z.string().check(z.minLength(1)),
  shop_id: z.optional(z.nullable(numericId)),
});

export function customerPrivacyRequestFromWebhook(payload: unknown): CustomerPrivacyRequest {
  const request = parsePayload(customerRequestSchema, payload);
  const email = request.customer.email?.trim() || null;
  const id = request.customer.id ?? null;
  if (id === null && email === null) throw new PlatformPayloadError(['customer: names neither an id nor an e-mail']);
  return {
    shopDomain: request.shop_domain,
    customer: { id, email },
    orderIds: request.orders_to_redact ?? request.orders_requested ?? [],
    dataRequestId: request.data_request?.id ?? null,
  };
}

export function shopRedactFromWebhook(payload: unknown): ShopRedactRequest {
  const request = parsePayload(shopRedactSchema, payload);
  return { shopDomain: request.shop_domain, shopId: request.shop_id ?? null };
}
