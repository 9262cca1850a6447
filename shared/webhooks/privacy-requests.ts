// Shopify's mandatory privacy webhooks: customers/redact erases the member, shop/redact erases the shop,
// customers/data_request publishes what is held about the member for the merchant to pass on. A customer
// who was referred as a friend (POST /v1/referrals) has their address erased from that referral too, member
// or not. docs/earning-engine.md ("Privacy webhooks") says what each keeps and why.
import { erasedMemberFigures } from '../data/figures-repository';
import { findCustomerByEmail, getCustomer } from '../data/customer-repository';
import { commitEvents, eraseCustomer, eraseShop, putErasureTombstone, readCustomerData } from '../data/erasure-repository';
import { clearFriendEmailHashKeys, findFriendReferralByEmail, friendEmailHashKey, redactFriendReferral } from '../data/referral-repository';
import type { CustomerRecord } from '../domain/customer';
import { canonicalEmail, mailboxKey } from '../domain/email-identity';
import { memberFacts } from '../domain/events';
import { logger } from '../observability/powertools';
import { customerPrivacyRequestFromWebhook, type PrivacyCustomer, shopRedactFromWebhook } from '../platform/privacy-payloads';
import { nowIso } from '../runtime/clock';
import { clearShopCatalogCache, shopCatalog } from '../shops/shop-catalog';

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

/**
 * Erases the customer's address from the referral a member made to them (by the address the request names
 * and by the member's own): the referral stays its referrer's, without the address; the once-per-mailbox
 * guard keeps only the mailbox's keyed hash. A guard of the earlier layout, keyed by the address, is
 * deleted. Returns how many referrals were cleared; a redelivery finds them cleared and changes nothing.
 */
async function redactReferredFriend(shopId: string, customer: PrivacyCustomer, memberId: string | null): Promise<number> {
  const member = memberId === null ? null : await getCustomer(shopId, memberId, true);
  const addresses = [customer.email, member?.record.email ?? null].filter(
    (address): address is string => typeof address === 'string' && address.trim() !== '',
  );
  if (addresses.length === 0) return 0;
  // A shop without the key never referred a friend under this layout: only a guard of the earlier one is looked for.
  const hashKey = await friendEmailHashKey(shopId, false);
  const guards = new Map<string, boolean>();
  for (const address of addresses) {
    if (hashKey) guards.set(mailboxKey(hashKey, address), false);
    guards.set(canonicalEmail(address), true);
  }
  const at = nowIso();
  let cleared = 0;
  for (const [guard, legacy] of guards) {
    const ref = await findFriendReferralByEmail(shopId, guard, true);
    if (ref && (await redactFriendReferral(shopId, ref, at, legacy ? guard : undefined))) cleared += 1;
  }
  return cleared;
}

/** Applies one verified privacy delivery of `shopId`; throws PlatformPayloadError for a payload it cannot use. */
export async function processPrivacyRequest(topic: PrivacyTopic, shopId: string, payload: unknown): Promise<string> {
  if (topic === 'shop/redact') {
    const request = shopRedactFromWebhook(payload);
    const erased = await eraseShop(shopId, [request.shopDomain]);
    clearShopCatalogCache();
    clearFriendEmailHashKeys();
    logger.info('Shop erased', { shop: shopId, ...erased });
    return 'shop_erased';
  }
  const request = customerPrivacyRequestFromWebhook(payload);
  const customerId = await memberIdOf(shopId, request.customer);
  if (topic === 'customers/redact') {
    // The referral made to the customer first: the member's own address is read before the profile goes.
    const friendReferrals = await redactReferredFriend(shopId, request.customer, customerId);
    if (customerId === null) return friendReferrals > 0 ? 'friend_referral_redacted' : 'not_member';
    // Before the erasure, so that a crash half-way still keeps every later import from bringing them back.
    await putErasureTombstone(shopId, customerId, nowIso());
    // `customer.erased` commits with the profile's deletion, and carries no personal data: ids and time only.
    const erased = await eraseCustomer(shopId, customerId, {
      figures: () => erasedMemberFigures(shopId, customerId),
      events: [{ type: 'customer.erased', shop_id: shopId, customer_id: customerId, occurred_at: nowIso(), notify: false }],
    });
    logger.info('Customer erased', { shop: shopId, customer: customerId, friendReferrals, ...erased });
    return erased.profileDeleted || erased.itemsDeleted > 0 || friendReferrals > 0 ? 'customer_erased' : 'nothing_held';
  }
  const data = customerId === null ? null : await readCustomerData(shopId, customerId);
  const profile = data?.profile as CustomerRecord | null | undefined;
  // Committed even when nothing is held (alone: the request changes nothing): the merchant answers it either way.
  await commitEvents([
    {
      ...(profile ? memberFacts(profile, (await shopCatalog(shopId)).tiers) : {}),
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
      referrals: data?.referrals ?? [],
      staff_changes: data?.staffChanges ?? [],
    },
  ]);
  return data?.profile ? 'data_published' : 'nothing_held';
}
