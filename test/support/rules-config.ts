// Configuration for the earning-rules and VIP-tier e2e tests: a points shop in `purchase` multiplier
// mode with a running and an expired campaign, a store-credit shop in `all` mode without campaigns,
// and a bare shop with nothing configured (empty lists, defaults).

export const RULES_KEYS = {
  points: 'rules_points_key',
  read: 'rules_read_key',
  credit: 'rules_credit_key',
  bare: 'rules_bare_key',
} as const;

/** Points-shop members, one per situation the multipliers distinguish. */
export const RULES_MEMBERS = {
  silver: '6001', // 1200 lifetime points
  none: '6002', // below the lowest tier
  excluded: '6003', // would be Gold, but excluded from the program
  goldByOrders: '6004', // no points, qualifies through the extra `orders` method
  bronze: '6005', // 600 lifetime points
} as const;

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
          // Created the same moment as `signup`: the id breaks the tie.
          rule('birthday', 'Celebrate your birthday', 'special_occasion', 250, 2),
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
          tier('bronze', 'Bronze', 500, 1.25, 1, { description: 'First steps' }),
          tier('silver', 'Silver', 1000, 1.5, 2, { threshold_orders: 10, reward_ids: ['paused-gift', 'five-off'] }),
        ],
        rewards: [
          { id: 'five-off', name: '$5 off', points_cost: 500, discount_amount: 5, expiry_days: 30, created_at: at(1) },
          { id: 'gold-gift', name: 'Gold gift', reward_type: 'vip', vip_tier_id: 'gold', points_cost: 100, discount_amount: 10, minimum_spend: 50, max_redemptions: 1, created_at: at(2) },
          { id: 'gone', name: 'Deleted', points_cost: 1, discount_amount: 1, deleted: true, created_at: at(3) },
          { id: 'paused-gift', name: 'Paused gift', description: 'Back soon', discount_type: 'percentage', points_cost: 300, discount_amount: 15, is_active: false, created_at: at(4) },
        ],
        platform: { customers: Object.values(RULES_MEMBERS).map(customer) },
        members: [
          member(RULES_MEMBERS.silver, 1200),
          member(RULES_MEMBERS.none, 100),
          member(RULES_MEMBERS.excluded, 3000, { excluded: true }),
          member(RULES_MEMBERS.goldByOrders, 0, { orders_count: 25 }),
          member(RULES_MEMBERS.bronze, 600),
        ],
      },
      {
        id: 'rules-credit', name: 'Credit Rules', loyalty_mode: 'store_credit', currency: 'EUR', referral_base_url: 'https://credit-rules.example/',
        vip_settings: { entry_method: 'spend', entry_methods_extra: [], entry_logic: 'AND', points_multiplier_mode: 'all' },
        api_keys: [{ name: 'Backend', scope: 'full', key: RULES_KEYS.credit }],
        earning_rules: [rule('credit-order', 'Order', 'purchase', 200, 1), rule('credit-social', 'Share', 'social', 100, 2)],
        vip_tiers: [
          tier('insider', 'Insider', 0, 1.1, 1, { threshold_points: null, threshold_spend: 5000, reward_ids: ['credit-flex'] }),
        ],
        rewards: [
          {
            id: 'credit-flex', name: 'Store credit', reward_type: 'vip', redemption_mode: 'flexible', points_cost: 100, discount_amount: 1,
            expiry_days: 90, flexible_config: { min_points: 100, max_points: 5000, points_per_unit: 100 }, created_at: at(5),
          },
        ],
        platform: { customers: ['8001', '8002'].map(customer) },
        members: [member('8001', 10, { total_spend: 6000 }), member('8002', 10, { total_spend: 4999 })],
      },
      {
        id: 'rules-bare', name: 'Bare Rules', currency: 'GBP', referral_base_url: 'https://bare-rules.example/',
        api_keys: [{ name: 'Backend', scope: 'full', key: RULES_KEYS.bare }],
      },
    ],
  };
}
