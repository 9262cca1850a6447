// The one module that speaks to checkout (purchase.checkout.reductions.render-after): Shopify's `shopify`
// global, typed through shopify.d.ts.
import { createCheckoutApi } from './checkout-api';
import { sharedHost } from './host-shared';
import type { CheckoutHost } from './reductions-block';
import { SERVICE_URL } from './service-url';

export function checkoutHost(): CheckoutHost {
  const currency = () => shopify.cost.totalAmount.value.currencyCode;
  const api = createCheckoutApi({ serviceUrl: SERVICE_URL, sessionToken: () => shopify.sessionToken.get() });
  return {
    ...sharedHost(shopify.i18n, api, currency),
    currency,
    lines: shopify.lines,
    cartDiscounts: shopify.discountAllocations,
    discountCodes: shopify.discountCodes,
    // Present only with access to protected customer data: a sign-in during checkout reloads the block.
    customer: shopify.buyerIdentity?.customer,
    canUpdateCodes: () => shopify.instructions.value.discounts.canUpdateDiscountCodes,
    applyCode: (change) => shopify.applyDiscountCodeChange(change),
    signInUrl: `${shopify.shop.storefrontUrl?.replace(/\/+$/, '') ?? ''}/account/login`,
  };
}
