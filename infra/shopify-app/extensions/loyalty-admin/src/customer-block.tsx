// The block on Shopify's customer page: the member's balance and tier with a link to the
// member in the app's home; a line saying the customer is not a member, or a critical banner (an alert) saying
// the program could not be reached (the customer page comes first: the block never blocks it).
import { useEffect, useState } from 'preact/hooks';
import type { Translate } from './host';
import { memberPageHref, type MemberLookup, type MemberLookupResult } from './member-api';

export function CustomerBlock(props: { customerId: string | null; lookup: MemberLookup; t: Translate; number: (value: number) => string }) {
  const { customerId, lookup, t, number } = props;
  const [result, setResult] = useState<MemberLookupResult | 'loading'>('loading');
  useEffect(() => {
    if (customerId === null) setResult({ kind: 'not-member' });
    else lookup.member(customerId).then(setResult, () => setResult({ kind: 'unavailable' }));
  }, [customerId, lookup]);

  if (result === 'loading') {
    return (
      <s-admin-block heading={t('heading')}>
        <s-text>{t('loading')}</s-text>
      </s-admin-block>
    );
  }
  if (result.kind === 'not-member') {
    return (
      <s-admin-block heading={t('heading')}>
        <s-text>{t('notMember')}</s-text>
      </s-admin-block>
    );
  }
  if (result.kind === 'unavailable') {
    // A critical banner: announced as an alert when it replaces the loading line.
    return (
      <s-admin-block heading={t('heading')}>
        <s-banner tone="critical">{t('unavailable')}</s-banner>
      </s-admin-block>
    );
  }
  const points = t('points', { count: result.currentPoints, points: number(result.currentPoints) });
  return (
    <s-admin-block
      heading={t('heading')}
      collapsedSummary={t('summary', { count: result.currentPoints, points: number(result.currentPoints) })}
    >
      <s-stack direction="block" gap="small-200">
        <s-text type="strong">{points}</s-text>
        <s-text>{result.tier === null ? t('noTier') : t('tier', { tier: result.tier })}</s-text>
        {result.excluded && <s-badge tone="warning">{t('excluded')}</s-badge>}
        <s-link href={memberPageHref(customerId!)}>{t('open')}</s-link>
      </s-stack>
    </s-admin-block>
  );
}
