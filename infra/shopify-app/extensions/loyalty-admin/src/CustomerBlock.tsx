// admin.customer-details.block.render: the member's points on Shopify's customer page.
import '@shopify/ui-extensions/preact';
import { render } from 'preact';
import { CustomerBlock } from './customer-block';
import { formatNumber, memberLookup, translate, viewedCustomerId } from './host';

export default async () => {
  render(<CustomerBlock customerId={viewedCustomerId()} lookup={memberLookup()} t={translate} number={formatNumber} />, document.body);
};
