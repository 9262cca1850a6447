// pos.home.tile.render: see src/pos-views.tsx.
import '@shopify/ui-extensions/preact';
import { render } from 'preact';
import { posHost } from './host';
import { HomeTile } from './pos-views';

export default async () => {
  render(<HomeTile host={posHost()} />, document.body);
};
