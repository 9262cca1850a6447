// Configuration for the earning-rules and VIP-tier e2e tests: a points shop in `purchase`
// multiplier mode and a store-credit shop in `all` mode.

export const RULES_KEYS = { points: 'rules_points_key', read: 'rules_read_key', credit: 'rules_credit_key' } as const;

const at = (day: number) => new Date(Date.UTC(2025, 0, day)).toISOString();
const rule = (id: string, name: string, category: string, points: number, day: number, extra: Record<string, unknown> = {}) => ({
  id, name, action: id, category, points_to_give: points, customer_facing_label: `${points} points`, created_at: at(day), ...extra,
});
const tier = (id: string, name: string, threshold: number, multiplier: number, position: number, extra: Record<string, unknown> = {}) => ({
  id, name, threshold_points: threshold, points_multiplier: multiplier, position, badge_color: '#123456', created_at: at(position), ...extra,
});
const customer = (id: string) => ({ id, email: `rules${id}@example.com`, first_name: 'R', last_name: id, created_at: at(1) });
const member = (id: string, lifetime: number, extra: Record<string, unknown> = {}) => ({
  platform_customer_id: id, current_points: lifetime, lifetime_points: lifetime, enrolled_at: at(2), ...extra,
});

export function rulesConfig() {
  return {
    shops: [
      {
        id: 'rules', name: 'Rules Store', loyalty_mode: 'points', currency: 'USD', referral_base_url: 'https://rules.example/',
        vip_settings: { entry_method: 'points', entry_methods_extra: ['orders'], entry_logic: 'OR', points_multiplier_mode: 'purchase' },
        api_keys: [{ name: 'Backend', scope: 'full', key: RULES_KEYS.points }, { name: 'Reader', scope: 'read', key: RULES_KEYS.read }],
        earning_rules: [
          rule('purchase', 'Place an order', 'purchase', 5, 1),
          rule('signup', 'Create an account', 'signup', 200, 2, { description: 'Welcome bonus' }),
          rule('follow_on_instagram', 'Follow us', 'social', 50, 3, { call_to_action_url: 'https://instagram.example/rules' }),
          rule('review', 'Write a review', 'content', 25, 4, { is_active: false }),
        ],
        campaigns: [
          { id: 'double', name: 'Double points week', multiplier: 2, starts_at: '2025-01-01T00:00:00.000Z', ends_at: '2099-01-01T00:00:00.000Z' },
          { id: 'old', name: 'Old triple', multiplier: 3, starts_at: '2024-01-01T00:00:00.000Z', ends_at: '2024-02-01T00:00:00.000Z' },
        ],
        vip_tiers: [
          tier('gold', 'Gold', 2500, 2, 3, { threshold_orders: 20, reward_ids: ['gold-gift', 'gone'], badge_image_url: 'https://cdn.example/gold.png' }),
          tier('bronze', 'Bronze', 500, 1.25, 1),
          tier('silver', 'Silver', 1000, 1.5, 2, { threshold_orders: 10, reward_ids: ['five-off'] }),
        ],
        rewards: [
          { id: 'five-off', name: '$5 off', points_cost: 500, discount_amount: 5, expiry_days: 30, created_at: at(1) },
          { id: 'gold-gift', name: 'Gold gift', reward_type: 'vip', vip_tier_id: 'gold', points_cost: 100, discount_amount: 10, minimum_spend: 50, max_redemptions: 1, created_at: at(2) },
          { id: 'gone', name: 'Deleted', points_cost: 1, discount_amount: 1, deleted: true, created_at: at(3) },
        ],
        platform: { customers: ['6001', '6002', '6003', '6004'].map(customer) },
        members: [member('6001', 1200), member('6002', 100), member('6003', 3000, { excluded: true }), member('6004', 0, { orders_count: 25 })],
      },
      {
        id: 'rules-credit', name: 'Credit Rules', loyalty_mode: 'store_credit', currency: 'EUR', referral_base_url: 'https://credit-rules.example/',
        vip_settings: { entry_method: 'spend', entry_methods_extra: [], entry_logic: 'AND', points_multiplier_mode: 'all' },
        api_keys: [{ name: 'Backend', scope: 'full', key: RULES_KEYS.credit }],
        earning_rules: [rule('credit-order', 'Order', 'purchase', 200, 1), rule('credit-social', 'Share', 'social', 100, 2)],
        vip_tiers: [tier('insider', 'Insider', 0, 1.1, 1, { threshold_points: null, threshold_spend: 5000 })],
        platform: { customers: [customer('8001')] },
        members: [member('8001', 10, { total_spend: 6000 })],
      },
    ],
  };
}
