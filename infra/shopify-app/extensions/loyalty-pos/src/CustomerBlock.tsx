// pos.customer-details.block.render: see src/pos-views.tsx.
import '@shopify/ui-extensions/preact';
import { render } from 'preact';
import { posHost } from './host';
import { CustomerBlock } from './pos-views';

export default async () => {
  render(<CustomerBlock host={posHost()} />, document.body);
};
