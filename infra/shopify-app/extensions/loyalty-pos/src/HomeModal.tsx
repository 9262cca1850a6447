// pos.home.modal.render: see src/pos-views.tsx.
import '@shopify/ui-extensions/preact';
import { render } from 'preact';
import { posHost } from './host';
import { HomeModal } from './pos-views';

export default async () => {
  render(<HomeModal host={posHost()} />, document.body);
};
