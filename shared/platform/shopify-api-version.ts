// The one Shopify Admin API version the adapter speaks and the simulator answers: 2026-10, supported by
// Shopify until October 2027. Moving to a newer version starts here and in the simulator's SDL subset.
export const SHOPIFY_API_VERSION = '2026-10';
