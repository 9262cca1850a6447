// The platform of a shop that is still connected. After app/uninstalled the store no longer lets the app in,
// so anything that needs the platform answers 503 naming the uninstall (instead of asking for a token that
// Shopify would refuse), and the scheduled reconcilers pass the shop by.
import type { ShopCatalog } from '../domain/shop';
import { unavailable } from '../domain/errors';
import { platformForShop } from '../platform/platform-for-shop';
import type { Platform } from '../platform/port';

export const APP_UNINSTALLED_DETAIL =
  "The loyalty app was uninstalled from the store. An operator must install it again and re-apply the shop's configuration.";

export function isConnected(shop: ShopCatalog): boolean {
  return !shop.settings.uninstalled_at;
}

/** The shop's platform adapter, or a 503 that says the app was uninstalled. */
export function connectedPlatform(shop: ShopCatalog): Platform {
  if (!isConnected(shop)) throw unavailable(APP_UNINSTALLED_DETAIL);
  return platformForShop(shop.settings.id);
}

/** The same, checked only when a call is made: for work that may not need the platform at all. */
export function platformWhenNeeded(shop: ShopCatalog): Platform {
  const platform = () => connectedPlatform(shop);
  return {
    getCustomer: (customerId) => platform().getCustomer(customerId),
    createDiscountCode: (input) => platform().createDiscountCode(input),
    findDiscountCode: (code) => platform().findDiscountCode(code),
    deleteDiscountCode: (id) => platform().deleteDiscountCode(id),
    creditStoreCredit: (input) => platform().creditStoreCredit(input),
    debitStoreCredit: (input) => platform().debitStoreCredit(input),
    listStoreCreditTransactions: (customerId, currency) => platform().listStoreCreditTransactions(customerId, currency),
    listOrdersUpdatedSince: (since, cursor) => platform().listOrdersUpdatedSince(since, cursor),
  };
}
