// The one module that speaks to the customer account host: Shopify's `shopify` global, typed by
// @shopify/ui-extensions through shopify.d.ts. Both targets share the standard API used here.
import { SERVICE_URL } from './service-url';
import { createShopperApi, type ShopperApi } from './shopper-api';

export type Translate = (key: string, replacements?: Record<string, string | number>) => string;

/** The /shopper client with a fresh session token on every call, as Shopify asks. */
export function shopperApi(): ShopperApi {
  return createShopperApi({ serviceUrl: SERVICE_URL, sessionToken: () => shopify.sessionToken.get() });
}

/** The extension's texts (locales/*.json) in the customer's language. */
export const translate: Translate = (key, replacements) => shopify.i18n.translate(key, replacements);

export const formatNumber = (value: number): string => shopify.i18n.formatNumber(value);

export const formatMoney = (amount: number, currency: string): string =>
  shopify.i18n.formatCurrency(amount, { currency, minimumFractionDigits: amount % 1 === 0 ? 0 : undefined });

export const formatDate = (iso: string): string => shopify.i18n.formatDate(new Date(iso), { dateStyle: 'medium' });

/** A new Idempotency-Key (a redemption's; its retries reuse it). */
export const newIdempotencyKey = (): string => crypto.randomUUID();
