// customer-account.order-index.block.render: the balance above the order list, and a link to the page.
import '@shopify/ui-extensions/preact';
import { render } from 'preact';
import { formatNumber, shopperApi, translate } from './host';
import { OrdersBlock } from './orders-block';

export default async () => {
  render(<OrdersBlock api={shopperApi()} t={translate} number={formatNumber} />, document.body);
};
