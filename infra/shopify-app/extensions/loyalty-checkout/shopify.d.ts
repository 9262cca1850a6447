// The `shopify` global of each source file, in the form Shopify's CLI writes this file
// (`shopify app dev` regenerates it). Only the host modules read the global, one per target.
import '@shopify/ui-extensions';

//@ts-ignore
declare module './src/host-checkout.ts' {
  const shopify: import('@shopify/ui-extensions/purchase.checkout.reductions.render-after').Api;
  const globalThis: { shopify: typeof shopify };
}

//@ts-ignore
declare module './src/host-thank-you.ts' {
  const shopify: import('@shopify/ui-extensions/purchase.thank-you.block.render').Api;
  const globalThis: { shopify: typeof shopify };
}

//@ts-ignore
declare module './src/host-order-status.ts' {
  const shopify: import('@shopify/ui-extensions/customer-account.order-status.block.render').Api;
  const globalThis: { shopify: typeof shopify };
}
