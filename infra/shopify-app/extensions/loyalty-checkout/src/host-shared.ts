// What the three blocks share of their host, whichever target they run in: texts, numbers, money and dates
// in the shopper's language, a fresh Idempotency-Key, and reading a Shopify signal from Preact.
import { useEffect, useState } from 'preact/hooks';
import type { CheckoutApi } from './checkout-api';

export type Translate = (key: string, replacements?: Record<string, string | number>) => string;

/** A Shopify signal as the extension APIs give one (`shopify.lines`, `shopify.discountCodes`...). */
export interface SignalLike<T> {
  readonly value: T;
  subscribe(fn: (value: T) => void): () => void;
}

export interface BlockHost {
  api: CheckoutApi;
  t: Translate;
  number: (value: number) => string;
  money: (amount: number) => string;
  date: (iso: string) => string;
  newKey: () => string;
  /** The real clock in ms (the order status page dates the points from the order's own time). */
  now: () => number;
}

/** A signal's value, the component rendered again on each change. */
export function useSignal<T>(signal: SignalLike<T> | undefined, fallback: T): T {
  const [value, setValue] = useState<T>(signal ? signal.value : fallback);
  useEffect(() => {
    if (!signal) return undefined;
    setValue(signal.value);
    return signal.subscribe(setValue);
  }, [signal]);
  return value;
}

/** The shared part of a host, from Shopify's i18n and the shop's currency. */
export function sharedHost(
  i18n: {
    translate: (key: string, options?: Record<string, unknown>) => unknown;
    formatNumber: (value: number) => string;
    formatCurrency: (value: number, options?: { currency?: string; minimumFractionDigits?: number }) => string;
    formatDate: (date: Date, options?: { dateStyle?: 'medium' }) => string;
  },
  api: CheckoutApi,
  currency: () => string,
): BlockHost {
  return {
    api,
    t: (key, replacements) => String(i18n.translate(key, replacements)),
    number: (value) => i18n.formatNumber(value),
    money: (amount) => i18n.formatCurrency(amount, { currency: currency(), ...(amount % 1 === 0 ? { minimumFractionDigits: 0 } : {}) }),
    date: (iso) => i18n.formatDate(new Date(iso), { dateStyle: 'medium' }),
    newKey: () => crypto.randomUUID(),
    now: () => Date.now(),
  };
}
