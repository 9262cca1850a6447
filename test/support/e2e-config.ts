// The configuration the e2e tests run on: two shops, so tenant isolation is always exercised.

export const KEYS = {
  full: 'e2e_full_key_0001',
  read: 'e2e_read_key_0001',
  revoked: 'e2e_revoked_key_01',
  otherShop: 'e2e_other_shop_key',
  credit: 'e2e_credit_full_key',
} as const;

const tiers = [
  { id: 'bronze', name: 'Bronze', description: 'Entry tier', threshold_points: 100, threshold_spend: null, threshold_orders: null,
    points_multiplier: 1.25, position: 1, badge_image_url: null, badge_color: '#CD7F32', reward_ids: [], created_at: '2025-01-01T00:00:00.000Z' },
  { id: 'gold', name: 'Gold', description: 'Top tier', threshold_points: 1000, threshold_spend: null, threshold_orders: null,
    points_multiplier: 2, position: 2, badge_image_url: 'https://cdn.example/gold.png', badge_color: '#FFD700', reward_ids: [], created_at: '2025-01-01T00:00:00.000Z' },
];

const platformCustomers = Array.from({ length: 30 }, (_, i) => ({
  id: String(1001 + i),
  email: i === 0 ? 'Ada.Lovelace@Example.com' : `customer${1001 + i}@example.com`,
  first_name: i === 0 ? 'Ada' : `First${i}`,
  last_name: i === 0 ? 'Lovelace' : `Last${i}`,
  created_at: new Date(Date.UTC(2024, 2, 1 + i, 10)).toISOString(),
}));

/** Members 1001..1025 are enrolled; 1026..1030 exist only on the platform. */
const members = Array.from({ length: 25 }, (_, i) => ({
  platform_customer_id: String(1001 + i),
  current_points: i === 0 ? 800 : (i * 53) % 400,
  lifetime_points: i === 0 ? 1200 : (i * 97) % 1500,
  redeemed_points: i === 0 ? 400 : (i * 11) % 90,
  excluded: i === 24,
  date_of_birth: i === 0 ? '1815-12-10' : null,
  anniversary_date: null,
  enrolled_at: new Date(Date.UTC(2025, 0, 1 + i)).toISOString(),
}));

export function e2eConfig() {
  return {
    shops: [
      {
        id: 'e2e',
        name: 'E2E Store',
        loyalty_mode: 'points',
        currency: 'USD',
        referral_base_url: 'https://e2e.example/',
        vip_settings: { entry_method: 'points', entry_methods_extra: [], entry_logic: 'OR', points_multiplier_mode: 'purchase' },
        api_keys: [
          { name: 'Backend', scope: 'full', key: KEYS.full },
          { name: 'Reporting', scope: 'read', key: KEYS.read },
          { name: 'Old', scope: 'full', key: KEYS.revoked, revoked: true },
        ],
        vip_tiers: tiers,
        rewards: [{ id: 'five-off', name: '$5 off', points_cost: 500, discount_amount: 5, expiry_days: 30, created_at: '2025-01-01T00:00:00.000Z' }],
        platform: { customers: platformCustomers },
        members,
      },
      {
        id: 'e2e-other',
        name: 'Other Store',
        loyalty_mode: 'points',
        currency: 'USD',
        referral_base_url: 'https://other.example/',
        api_keys: [{ name: 'Other', scope: 'full', key: KEYS.otherShop }],
        platform: { customers: [{ id: '5001', email: 'other@example.com', first_name: 'O', last_name: 'Ther', created_at: null }] },
        members: [{ platform_customer_id: '5001', current_points: 10, lifetime_points: 10, redeemed_points: 0, enrolled_at: '2025-01-01T00:00:00.000Z' }],
      },
      {
        id: 'e2e-credit',
        name: 'Credit Store',
        loyalty_mode: 'store_credit',
        currency: 'EUR',
        referral_base_url: 'https://credit.example/join',
        api_keys: [{ name: 'Credit', scope: 'full', key: KEYS.credit }],
        platform: { customers: [{ id: '7001', email: 'credit@example.com', first_name: 'Cre', last_name: 'Dit', created_at: '2023-05-05T05:05:05.000Z' }] },
        members: [{ platform_customer_id: '7001', current_points: 2550, lifetime_points: 3000, redeemed_points: 450, enrolled_at: '2025-01-01T00:00:00.000Z' }],
      },
    ],
  };
}
