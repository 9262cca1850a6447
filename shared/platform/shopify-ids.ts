// Shopify global ids (gid://shopify/Customer/1001) against the numeric ids the loyalty domain keeps.

const CUSTOMER_GID_PREFIX = 'gid://shopify/Customer/';

export function customerGid(customerId: string): string {
  return customerId.startsWith('gid://') ? customerId : `${CUSTOMER_GID_PREFIX}${customerId}`;
}

/** The last path segment of a global id: `gid://shopify/Customer/1001` -> `1001`. */
export function idFromGid(gid: string): string {
  const path = gid.split('?')[0] ?? gid;
  return path.slice(path.lastIndexOf('/') + 1);
}

export function productVariantGid(variantId: string): string {
  return variantId.startsWith('gid://') ? variantId : `gid://shopify/ProductVariant/${variantId}`;
}
