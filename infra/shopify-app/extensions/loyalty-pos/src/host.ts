// The one module that speaks to Shopify POS: the `shopify` global, typed by @shopify/ui-extensions through
// shopify.d.ts (as the customer details block's API, the widest of the five targets: cart, customer, action,
// session; the home targets have no `customer`, the action target no `action`, read with care below).
import { createStaffApi } from './staff-api';
import { SERVICE_URL } from './service-url';
import type { PosHost } from './pos-host';

/** The host every target of the extension renders with. */
export function posHost(): PosHost {
  const api = createStaffApi({
    serviceUrl: SERVICE_URL,
    // POS mints the staff member's token (the admin format) and caches it; asked again before every call.
    token: () => shopify.session.getSessionToken(),
    fetch: (url, init) => fetch(url, init),
  });
  const cart = shopify.cart;
  const codesOf = () => (cart.current.value.cartDiscounts ?? []).filter((discount) => discount.type === 'Code').map(codeOf);
  return {
    api,
    t: (key, replacements) => shopify.i18n.translate(key, replacements),
    number: (value) => shopify.i18n.formatNumber(value),
    money: (value, currency) => shopify.i18n.formatCurrency(value, { currency }),
    viewedCustomerId: () => {
      const customer = (shopify as { customer?: { id?: number } }).customer;
      return customer?.id ? String(customer.id) : null;
    },
    cart: {
      customerId: () => (cart.current.value.customer?.id ? String(cart.current.value.customer.id) : null),
      codes: codesOf,
      subscribe: (listener) => cart.current.subscribe(() => listener()),
      addCode: (code) => cart.addCartCodeDiscount(code),
      // POS removes the cart's discount as a whole: with other codes in the cart, the cart is given them back.
      removeCode: async (code) => {
        const others = codesOf().filter((kept) => kept.toUpperCase() !== code.toUpperCase());
        if (others.length === codesOf().length) return;
        await cart.removeAllDiscounts(false);
        for (const kept of others) await cart.addCartCodeDiscount(kept);
      },
    },
    presentModal: () => (shopify as { action?: { presentModal(): void } }).action?.presentModal(),
    toast: (message) => shopify.toast.show(message),
  };
}

/** A code discount's code: POS describes a code discount by its code. */
const codeOf = (discount: { discountDescription?: string }): string => discount.discountDescription ?? '';
