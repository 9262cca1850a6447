// purchase.thank-you.block.render (every plan but Starter): the points this order earns, the balance and the tier.
import '@shopify/ui-extensions/preact';
import { render } from 'preact';
import { thankYouHost } from './host-thank-you';
import { OrderPoints } from './order-points';

export default async () => {
  render(<OrderPoints host={thankYouHost()} />, document.body);
};
