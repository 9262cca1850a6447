// The block on the order list: the member's balance and tier with a link to the loyalty page, or an
// invitation to join; nothing at all when the service cannot be reached (the order list comes first).
import { useEffect, useState } from 'preact/hooks';
import type { Translate } from './host';
import { LOYALTY_PAGE_HREF } from './loyalty-view';
import type { MemberAnswer, ShopperApi } from './shopper-api';

export function OrdersBlock({ api, t, number }: { api: ShopperApi; t: Translate; number: (value: number) => string }) {
  const [who, setWho] = useState<MemberAnswer | null>(null);
  useEffect(() => {
    api.member().then(setWho, () => setWho(null));
  }, [api]);

  if (!who?.loggedIn) return null;
  const { member } = who;
  return (
    <s-section heading={t('block.heading')}>
      <s-stack direction="inline" gap="base" alignItems="center">
        {member ? (
          <>
            <s-text type="strong">{t('balance.points', { count: member.current_points, points: number(member.current_points) })}</s-text>
            {member.vip_tier && <s-badge>{member.vip_tier.name}</s-badge>}
            <s-link href={LOYALTY_PAGE_HREF}>{t('block.link')}</s-link>
          </>
        ) : (
          <>
            <s-text>{t('block.join')}</s-text>
            <s-link href={LOYALTY_PAGE_HREF}>{t('block.joinLink')}</s-link>
          </>
        )}
      </s-stack>
    </s-section>
  );
}
