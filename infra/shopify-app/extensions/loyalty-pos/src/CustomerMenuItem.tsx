// pos.customer-details.action.menu-item.render: see src/pos-views.tsx.
import '@shopify/ui-extensions/preact';
import { render } from 'preact';
import { posHost } from './host';
import { CustomerMenuItem } from './pos-views';

export default async () => {
  render(<CustomerMenuItem host={posHost()} />, document.body);
};
