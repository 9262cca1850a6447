// customer-account.page.render: the loyalty page (src/loyalty-app.tsx).
import '@shopify/ui-extensions/preact';
import { render } from 'preact';
import { formatDate, formatMoney, formatNumber, newIdempotencyKey, shopperApi, translate } from './host';
import { LoyaltyApp } from './loyalty-app';

export default async () => {
  render(
    <LoyaltyApp
      host={{ api: shopperApi(), t: translate, number: formatNumber, money: formatMoney, date: formatDate, newKey: newIdempotencyKey }}
    />,
    document.body,
  );
};
