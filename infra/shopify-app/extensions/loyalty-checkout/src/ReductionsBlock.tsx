// purchase.checkout.reductions.render-after (Shopify Plus only): the block beside the discount field.
import '@shopify/ui-extensions/preact';
import { render } from 'preact';
import { checkoutHost } from './host-checkout';
import { ReductionsBlock } from './reductions-block';

export default async () => {
  render(<ReductionsBlock host={checkoutHost()} />, document.body);
};
