// The one module that speaks to the order status page (customer-account.order-status.block.render): Shopify's
// `shopify` global, typed through shopify.d.ts. The order's own time and cancellation come with it.
import { createCheckoutApi } from './checkout-api';
import { sharedHost } from './host-shared';
import type { OrderHost } from './order-points';
import { SERVICE_URL } from './service-url';

export function orderStatusHost(): OrderHost {
  const currency = () => shopify.cost.totalAmount.value.currencyCode;
  const api = createCheckoutApi({ serviceUrl: SERVICE_URL, sessionToken: () => shopify.sessionToken.get() });
  return {
    ...sharedHost(shopify.i18n, api, currency),
    currency,
    lines: shopify.lines,
    orderDiscounts: shopify.discountAllocations,
    placedAt: () => shopify.order.value?.processedAt ?? null,
    cancelled: () => Boolean(shopify.order.value?.cancelledAt),
  };
}
