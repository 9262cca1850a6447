// The one module that speaks to Shopify's admin host: the `shopify` global, typed by @shopify/ui-extensions
// through shopify.d.ts. Shopify's admin adds the staff member's ID token to every fetch to the app's own
// domain, so the client below never sees a token.
import { createMemberLookup, type MemberLookup } from './member-api';
import { SERVICE_URL } from './service-url';

export type Translate = (key: string, replacements?: Record<string, string | number>) => string;

/** The platform id of the customer whose page the block is on (`gid://shopify/Customer/<id>`), or null. */
export function viewedCustomerId(): string | null {
  const gid = shopify.data.selected[0]?.id ?? '';
  const match = /^gid:\/\/shopify\/Customer\/(\d+)$/.exec(gid);
  return match ? match[1]! : null;
}

export const memberLookup = (): MemberLookup => createMemberLookup({ serviceUrl: SERVICE_URL, fetch: (url) => fetch(url) });

export const translate: Translate = (key, replacements) => shopify.i18n.translate(key, replacements);

export const formatNumber = (value: number): string => shopify.i18n.formatNumber(value);
