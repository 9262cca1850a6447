// The `shopify` global of each source file, in the form Shopify's CLI writes this file
// (`shopify app dev` regenerates it). src/host.ts is the only module that reads the global: it is typed with the
// customer details block's API, which has every API the five targets use between them (src/host.ts).
import '@shopify/ui-extensions';

//@ts-ignore
declare module './src/host.ts' {
  const shopify: import('@shopify/ui-extensions/pos.customer-details.block.render').Api;
  const globalThis: { shopify: typeof shopify };
}

//@ts-ignore
declare module './src/HomeTile.tsx' {
  const shopify: import('@shopify/ui-extensions/pos.home.tile.render').Api;
  const globalThis: { shopify: typeof shopify };
}

//@ts-ignore
declare module './src/HomeModal.tsx' {
  const shopify: import('@shopify/ui-extensions/pos.home.modal.render').Api;
  const globalThis: { shopify: typeof shopify };
}

//@ts-ignore
declare module './src/CustomerBlock.tsx' {
  const shopify: import('@shopify/ui-extensions/pos.customer-details.block.render').Api;
  const globalThis: { shopify: typeof shopify };
}

//@ts-ignore
declare module './src/CustomerMenuItem.tsx' {
  const shopify: import('@shopify/ui-extensions/pos.customer-details.action.menu-item.render').Api;
  const globalThis: { shopify: typeof shopify };
}

//@ts-ignore
declare module './src/CustomerAction.tsx' {
  const shopify: import('@shopify/ui-extensions/pos.customer-details.action.render').Api;
  const globalThis: { shopify: typeof shopify };
}
