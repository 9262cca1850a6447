// The Shopify Admin GraphQL adapter of the Platform port: customers, discount codes, store credit and changed orders, each
// in its own module, over one transport that owns timeouts, retries and the mapping of failures.
import type { Platform } from './port';
import { fetchShopifyCustomer } from './shopify-customers';
import { createShopifyDiscountCode, deleteShopifyDiscountCode, findShopifyDiscountCode } from './shopify-discount-codes';
import { listShopifyOrdersUpdatedSince, ORDERS_PAGE_SIZE } from './shopify-orders';
import { creditShopifyStoreCredit, debitShopifyStoreCredit, listShopifyStoreCreditTransactions } from './shopify-store-credit';
import { createShopifyTransport, type ShopifyTransportOptions } from './shopify-transport';

export interface ShopifyPlatformOptions extends ShopifyTransportOptions {
  /** Orders per page of listOrdersUpdatedSince. Default ORDERS_PAGE_SIZE. */
  ordersPageSize?: number;
}

export function createShopifyPlatform(options: ShopifyPlatformOptions): Platform {
  const transport = createShopifyTransport(options);
  const pageSize = options.ordersPageSize ?? ORDERS_PAGE_SIZE;
  return {
    getCustomer: (customerId) => fetchShopifyCustomer(transport, customerId),
    createDiscountCode: (input) => createShopifyDiscountCode(transport, input),
    findDiscountCode: (code) => findShopifyDiscountCode(transport, code),
    deleteDiscountCode: (id) => deleteShopifyDiscountCode(transport, id),
    creditStoreCredit: (input) => creditShopifyStoreCredit(transport, input),
    debitStoreCredit: (input) => debitShopifyStoreCredit(transport, input),
    listStoreCreditTransactions: (customerId, currency) => listShopifyStoreCreditTransactions(transport, customerId, currency),
    listOrdersUpdatedSince: (since, cursor) => listShopifyOrdersUpdatedSince(transport, since, cursor ?? null, pageSize),
  };
}
