// Shopify's mandatory privacy webhooks: customers/redact erases the member, shop/redact erases the shop,
// customers/data_request publishes what is held about the member for the merchant to pass on.
// docs/earning-engine.md ("Privacy webhooks") says what each keeps and why.
import { findCustomerByEmail } from '../data/customer-repository';
import { eraseCustomer, eraseShop, readCustomerData } from '../data/erasure-repository';
import { publishAfterCommit } from '../events/domain-events';
import { logger } from '../observability/powertools';
import { customerPrivacyRequestFromWebhook, type PrivacyCustomer, shopRedactFromWebhook } from '../platform/privacy-payloads';
import { nowIso } from '../runtime/clock';
import { clearShopCatalogCache } from '../shops/shop-catalog';

export const PRIVACY_TOPICS = ['customers/redact', 'shop/redact', 'customers/data_request'] as const;
export type PrivacyTopic = (typeof PRIVACY_TOPICS)[number];

export function isPrivacyTopic(topic: string): topic is PrivacyTopic {
  return (PRIVACY_TOPICS as readonly string[]).includes(topic);
}

/** The member's platform id: the one named, else the member found by the e-mail named; null when neither. */
async function memberIdOf(shopId: string, customer: PrivacyCustomer): Promise<string | null> {
  if (customer.id !== null) return customer.id;
  const found = customer.email === null ? null : await findCustomerByEmail(shopId, customer.email);
  return found?.record.platform_customer_id ?? null;
}

/** Applies one verified privacy delivery of `shopId`; throws PlatformPayloadError for a payload it cannot use. */
export async function processPrivacyRequest(topic: PrivacyTopic, shopId: string, payload: unknown): Promise<string> {
  if (topic === 'shop/redact') {
    const request = shopRedactFromWebhook(payload);
    const erased = await eraseShop(shopId, [request.shopDomain]);
    clearShopCatalogCache();
    logger.info('Shop erased', { shop: shopId, ...erased });
    return 'shop_erased';
  }
  const request = customerPrivacyRequestFromWebhook(payload);
  const customerId = await memberIdOf(shopId, request.customer);
  if (topic === 'customers/redact') {
    if (customerId === null) return 'not_member';
    const erased = await eraseCustomer(shopId, customerId);
    logger.info('Customer erased', { shop: shopId, customer: customerId, ...erased });
    return erased.profileDeleted || erased.itemsDeleted > 0 ? 'customer_erased' : 'nothing_held';
  }
  const data = customerId === null ? null : await readCustomerData(shopId, customerId);
  // Published even when nothing is held: the merchant answers the request either way.
  await publishAfterCommit([
    {
      type: 'customer.data_requested',
      shop_id: shopId,
      customer_id: customerId ?? '',
      occurred_at: nowIso(),
      data_request_id: request.dataRequestId,
      requested_customer: request.customer,
      orders_requested: request.orderIds,
      customer: data?.profile ?? null,
      earning_history: data?.earningHistory ?? [],
      reward_history: data?.rewardHistory ?? [],
      orders: data?.orders ?? [],
    },
  ]);
  return data?.profile ? 'data_published' : 'nothing_held';
}
