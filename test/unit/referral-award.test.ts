// The referrer's award with the repositories replaced: the figures written and the events committed with them,
// the tier event measured like every other points move, from the tier the referrer's figures reached
// before the award under the shop's tiers as they are now (not the tier stored under older ones).
import type { CustomerRecord } from '../../shared/domain/customer';
import type { EarningRule } from '../../shared/domain/shop';
import { customerRecord } from '../fixtures/customer-record';
import { shopCatalog, vipTier } from '../fixtures/shop-catalog';

jest.mock('../../shared/data/customer-repository', () => ({ getCustomer: jest.fn() }));
jest.mock('../../shared/data/order-repository', () => ({ writeReferralAward: jest.fn() }));

import { getCustomer } from '../../shared/data/customer-repository';
import { writeReferralAward } from '../../shared/data/order-repository';
import { awardReferrer } from '../../shared/orders/referral-award';
import { setClock } from '../../shared/runtime/clock';

const NOW = '2026-02-01T10:00:00.000Z';
const rule: EarningRule = {
  id: 'refer',
  name: 'Refer a friend',
  description: null,
  action: 'referral',
  category: 'referral',
  is_active: true,
  points_to_give: 200,
  customer_facing_label: 'Refer a friend',
  call_to_action_url: null,
  created_at: '2025-01-01T00:00:00.000Z',
};
// Silver begins at 1000 lifetime points.
const shop = shopCatalog('shop-a', {
  earningRules: [rule],
  tiers: [vipTier('silver', { threshold_points: 1000, position: 1 }), vipTier('gold', { threshold_points: 3000, position: 2 })],
});

function referrer(overrides: Partial<CustomerRecord>) {
  jest.mocked(getCustomer).mockResolvedValue({ record: customerRecord({ platform_customer_id: 'r1', ...overrides }), version: 3 });
}

async function award() {
  const outcome = await awardReferrer(shop, 'new1', 'r1', 'order-1');
  const written = jest.mocked(writeReferralAward).mock.calls[0]?.[1];
  const events = jest.mocked(writeReferralAward).mock.calls[0]?.[5] ?? [];
  return { outcome, written, tierEvents: events.filter((event) => event.type === 'tier.changed') };
}

beforeEach(() => {
  jest.resetAllMocks();
  setClock(new Date(NOW));
  jest.mocked(writeReferralAward).mockResolvedValue('written');
});
afterAll(() => setClock(null));

describe('referral award', () => {
  it('gives the referrer the points, lifetime points and the tier they reach, with tier.changed', async () => {
    referrer({ current_points: 50, lifetime_points: 900 });

    const { outcome, written, tierEvents } = await award();

    expect(outcome).toBe('awarded');
    expect(written).toMatchObject({ current_points: 250, lifetime_points: 1100, vip_tier_id: 'silver', updated_at: NOW });
    expect(tierEvents).toEqual([
      {
        type: 'tier.changed',
        shop_id: 'shop-a',
        customer_id: 'r1',
        from_tier_id: null,
        to_tier_id: 'silver',
        send_email: true,
        occurred_at: NOW,
        // The referrer's facts after the award.
        email: 'customerr1@example.com',
        first_name: 'Test',
        points_balance: 250,
        tier: { id: 'silver', name: 'silver' },
      },
    ]);
  });

  it('publishes no tier event when the tier stays', async () => {
    referrer({ current_points: 50, lifetime_points: 1200, vip_tier_id: 'silver' });

    const { written, tierEvents } = await award();

    expect(written?.vip_tier_id).toBe('silver');
    expect(tierEvents).toEqual([]);
  });

  // These two published the stored vip_tier_id as the tier before (the other paths never did).
  it('publishes the rise of a referrer whose stored tier was written under older tiers', async () => {
    // Stored as silver when silver began lower; under the shop's tiers the referrer has no tier yet.
    referrer({ current_points: 0, lifetime_points: 900, vip_tier_id: 'silver' });

    const { tierEvents } = await award();

    expect(tierEvents).toEqual([expect.objectContaining({ from_tier_id: null, to_tier_id: 'silver' })]);
  });

  it('publishes no change for a referrer the shop has shown in the tier all along', async () => {
    // Stored with no tier when silver began higher; under the shop's tiers the referrer is silver already.
    referrer({ current_points: 0, lifetime_points: 1500, vip_tier_id: null });

    const { written, tierEvents } = await award();

    expect(written?.vip_tier_id).toBe('silver');
    expect(tierEvents).toEqual([]);
  });
});
