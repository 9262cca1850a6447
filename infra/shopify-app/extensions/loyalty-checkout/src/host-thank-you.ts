// The one module that speaks to the thank-you page (purchase.thank-you.block.render): Shopify's `shopify`
// global, typed through shopify.d.ts. The order's lines and discounts are the checkout's as it was paid.
import { createCheckoutApi } from './checkout-api';
import { sharedHost } from './host-shared';
import type { OrderHost } from './order-points';
import { SERVICE_URL } from './service-url';

export function thankYouHost(): OrderHost {
  const currency = () => shopify.cost.totalAmount.value.currencyCode;
  const api = createCheckoutApi({ serviceUrl: SERVICE_URL, sessionToken: () => shopify.sessionToken.get() });
  return {
    ...sharedHost(shopify.i18n, api, currency),
    currency,
    lines: shopify.lines,
    orderDiscounts: shopify.discountAllocations,
    // The thank-you page is shown at payment: the estimate's "now" is the order's time.
    placedAt: () => null,
    cancelled: () => false,
  };
}
