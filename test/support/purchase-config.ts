// Configuration for the purchase e2e tests: a points shop and a store-credit shop with every kind of reward.

export const PURCHASE_KEYS = { points: 'purchase_points_key', pointsRead: 'purchase_read_key', credit: 'purchase_credit_key' } as const;

const created_at = '2025-01-01T00:00:00.000Z';
const reward = (id: string, overrides: Record<string, unknown> = {}) => ({
  id, name: `Reward ${id}`, discount_type: 'fixed', points_cost: 100, discount_amount: 5, expiry_days: 30, created_at, ...overrides,
});
const customer = (id: string) => ({ id, email: `buyer${id}@example.com`, first_name: 'Buyer', last_name: id, created_at });
const member = (id: string, points: number, overrides: Record<string, unknown> = {}) => ({
  platform_customer_id: id, current_points: points, lifetime_points: points, redeemed_points: 0, enrolled_at: created_at, ...overrides,
});

export function purchaseConfig() {
  return {
    shops: [
      {
        id: 'buy', name: 'Buy Store', loyalty_mode: 'points', currency: 'USD', referral_base_url: 'https://buy.example/',
        api_keys: [
          { name: 'Backend', scope: 'full', key: PURCHASE_KEYS.points },
          { name: 'Reader', scope: 'read', key: PURCHASE_KEYS.pointsRead },
        ],
        vip_tiers: [
          { id: 'gold', name: 'Gold', threshold_points: 5000, points_multiplier: 2, position: 1, created_at },
        ],
        rewards: [
          reward('five-off', { name: '$5 off', points_cost: 500, minimum_spend: 25 }),
          reward('ten-percent', { name: '10% off', discount_type: 'percentage', discount_amount: 10, points_cost: 1000, expiry_days: null }),
          reward('gold-only', { reward_type: 'vip', vip_tier_id: 'gold', points_cost: 100 }),
          reward('welcome', { reward_type: 'entry', points_cost: 0 }),
          reward('flex', { redemption_mode: 'flexible', points_cost: 100, flexible_config: { min_points: 100, max_points: 2000, points_per_unit: 100 } }),
          reward('retired', { is_active: false }),
          reward('gone', { deleted: true }),
          reward('once', { points_cost: 10, max_redemptions: 1 }),
        ],
        platform: { customers: ['3001', '3002', '3003', '3004', '3005', '3006', '3007', '3008'].map(customer) },
        members: [
          member('3001', 10_000),
          member('3002', 50),
          member('3003', 10_000, { lifetime_points: 6000 }),
          member('3004', 10_000, { excluded: true }),
          member('3005', 10_000),
          member('3006', 10_000),
          member('3007', 600),
          member('3008', 600),
        ],
      },
      {
        id: 'buy-credit', name: 'Credit Store', loyalty_mode: 'store_credit', currency: 'EUR', referral_base_url: 'https://credit.example/',
        api_keys: [{ name: 'Backend', scope: 'full', key: PURCHASE_KEYS.credit }],
        rewards: [
          reward('credit-flex', { redemption_mode: 'flexible', points_cost: 500, flexible_config: { min_points: 500, max_points: 5000, points_per_unit: 100 } }),
          reward('credit-fixed', { points_cost: 500 }),
        ],
        platform: { customers: [customer('4001')] },
        members: [member('4001', 10_000)],
      },
    ],
  };
}
