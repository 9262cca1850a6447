// The customer's and the app's lifecycle on the platform, followed by the program: a new platform customer
// is enrolled when the shop asks for it (earning_settings.auto_enroll), a member's e-mail and names follow
// the platform, a deleted customer is erased as by customers/redact, a merge folds the deleted customer's
// membership into the kept one, and app/uninstalled disconnects the shop.
import { erasedMemberFigures } from '../data/figures-repository';
import { getCustomer } from '../data/customer-repository';
import { eraseCustomer } from '../data/erasure-repository';
import { markShopUninstalled } from '../data/shop-repository';
import { enrollPlatformCustomer, updateCustomer } from '../customers/customer-service';
import { mergeMembers } from '../customers/merge-customers';
import type { PlatformDetails } from '../domain/customer';
import { autoEnrolls, type ShopCatalog } from '../domain/shop';
import { logger } from '../observability/powertools';
import {
  customerFromWebhook,
  customerMergeFromWebhook,
  customerUpdateFromWebhook,
  deletedCustomerIdFromWebhook,
} from '../platform/customer-payloads';
import { nowIso } from '../runtime/clock';
import { platformWhenNeeded } from '../shops/connected-platform';
import { clearShopCatalogCache } from '../shops/shop-catalog';

/** customers/create: with auto_enroll on, the new customer becomes a member as POST /v1/customers makes one. */
export async function customerCreated(shop: ShopCatalog, payload: unknown): Promise<string> {
  const customer = customerFromWebhook(payload);
  if (!autoEnrolls(shop.settings)) return 'auto_enroll_off';
  // A member since the account was made: an order paid before this delivery was processed earns too.
  const enrolment = await enrollPlatformCustomer(shop.settings.id, customer, shop, { memberSince: customer.createdAt });
  return enrolment.created ? 'enrolled' : 'already_member';
}

/**
 * customers/update: the member's e-mail and names as the platform now has them. A field Shopify leaves out
 * or empties (an app without protected customer data access gets none) keeps what the member has, and a
 * delivery older than the details already taken changes nothing.
 */
export async function customerUpdated(shop: ShopCatalog, payload: unknown): Promise<string> {
  const { customer, updatedAt } = customerUpdateFromWebhook(payload);
  const shopId = shop.settings.id;
  const member = await getCustomer(shopId, customer.id, true);
  if (!member) return 'not_member';
  const known = member.record.platform_updated_at;
  if (updatedAt && known && updatedAt < known) return 'older_than_held';
  const changes: PlatformDetails = {};
  const email = customer.email.normalize('NFC');
  if (email && email !== member.record.email) changes.email = email;
  if (customer.firstName && customer.firstName !== member.record.first_name) changes.first_name = customer.firstName;
  if (customer.lastName && customer.lastName !== member.record.last_name) changes.last_name = customer.lastName;
  if (Object.keys(changes).length === 0) return 'unchanged';
  await updateCustomer(shopId, customer.id, { ...changes, ...(updatedAt ? { platform_updated_at: updatedAt } : {}) });
  return 'updated';
}

/** customers/delete: the customer is gone from the store, so the member is erased as customers/redact erases it. */
export async function customerDeleted(shopId: string, payload: unknown): Promise<string> {
  const customerId = deletedCustomerIdFromWebhook(payload);
  const erased = await eraseCustomer(shopId, customerId, { figures: () => erasedMemberFigures(shopId, customerId) });
  if (!erased.profileDeleted && erased.itemsDeleted === 0) return 'not_member';
  logger.info('Deleted customer erased', { shop: shopId, customer: customerId, ...erased });
  return 'customer_erased';
}

/** customers/merge: once Shopify completed it, the deleted customer's membership folds into the kept one. */
export async function customersMerged(shop: ShopCatalog, payload: unknown): Promise<string> {
  const merge = customerMergeFromWebhook(payload);
  if (merge.status !== 'completed') return `merge_${merge.status}`;
  return mergeMembers(shop, merge.keptId, merge.deletedId, platformWhenNeeded(shop));
}

/** app/uninstalled: the shop is disconnected until its configuration is applied again. */
export async function appUninstalled(shopId: string): Promise<string> {
  const marked = await markShopUninstalled(shopId, nowIso());
  // This instance stops at once; others within their configuration cache's lifetime.
  clearShopCatalogCache();
  logger.warn('The app was uninstalled from the store: the shop is disconnected', { shop: shopId });
  return marked ? 'disconnected' : 'unknown_shop';
}
