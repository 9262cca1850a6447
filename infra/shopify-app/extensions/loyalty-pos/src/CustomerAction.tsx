// pos.customer-details.action.render: see src/pos-views.tsx.
import '@shopify/ui-extensions/preact';
import { render } from 'preact';
import { posHost } from './host';
import { CustomerAction } from './pos-views';

export default async () => {
  render(<CustomerAction host={posHost()} />, document.body);
};
