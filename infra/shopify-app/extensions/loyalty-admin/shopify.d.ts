// The `shopify` global of each source file, in the form Shopify's CLI writes this file
// (`shopify app dev` regenerates it). src/host.ts is the only module that reads the global.
import '@shopify/ui-extensions';

//@ts-ignore
declare module './src/host.ts' {
  const shopify: import('@shopify/ui-extensions/admin.customer-details.block.render').Api;
  const globalThis: { shopify: typeof shopify };
}
