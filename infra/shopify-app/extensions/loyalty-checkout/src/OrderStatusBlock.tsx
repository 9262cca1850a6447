// customer-account.order-status.block.render (every plan but Starter): the same block on the order status page.
import '@shopify/ui-extensions/preact';
import { render } from 'preact';
import { orderStatusHost } from './host-order-status';
import { OrderPoints } from './order-points';

export default async () => {
  render(<OrderPoints host={orderStatusHost()} />, document.body);
};
