// The configuration the history e2e tests run on: a points shop whose main member has enough earning
// and reward history to page, a second member, and a store-credit shop holding a member with the
// same platform id, so isolation between customers and between shops is always exercised.

export const HISTORY_KEYS = {
  full: 'hist_points_full_key',
  read: 'hist_points_read_key',
  revoked: 'hist_points_revoked_key',
  credit: 'hist_credit_full_key',
} as const;

/** Platform customer ids and e-mails of the points shop's members. */
export const MEMBERS = {
  main: { id: '3001', email: 'Hist.Member@Example.com' },
  second: { id: '3002', email: 'second.member@example.com' },
  empty: { id: '3003', email: 'no.history@example.com' },
  /** Kept for the points-adjustment check, so the other members' totals never move. */
  adjusted: { id: '3004', email: 'adjusted@example.com' },
} as const;

const EARNING_STATUSES = ['approved', 'pending', 'rejected'] as const;
const REWARD_STATUSES = ['active', 'used', 'expired'] as const;

const at = (day: number, hour = 12) => new Date(Date.UTC(2025, 0, 1 + day, hour)).toISOString();

/**
 * 27 earning entries: statuses cycle approved, pending, rejected; points repeat so sorts meet ties;
 * pending entries and every fifth other one have not been given yet (points_given_at null).
 */
export const MAIN_EARNINGS = Array.from({ length: 27 }, (_, i) => {
  const status = EARNING_STATUSES[i % 3]!;
  const multiplier = i % 2 === 0 ? 1 : 1.5;
  const basePoints = 10 + ((i * 7) % 6) * 10;
  return {
    id: `hist-earn-${String(i + 1).padStart(2, '0')}`,
    earning_rule_id: 'hist-rule-purchase',
    action: 'purchase',
    points: Math.round(basePoints * multiplier),
    base_points: basePoints,
    points_multiplier: multiplier,
    status,
    order_id: `gid-order-${5000 + i}`,
    order_number: `#${5000 + i}`,
    points_due_at: status === 'pending' ? at(i + 30) : null,
    points_given_at: status === 'pending' || i % 5 === 0 ? null : at(i, 18),
    points_expiry_at: status === 'approved' ? at(i + 365) : null,
    created_at: at(i),
  };
});

/** Seven reward entries with all three statuses; ids in creation order. */
export const MAIN_REWARDS = Array.from({ length: 7 }, (_, i) => {
  const status = REWARD_STATUSES[i % 3]!;
  return {
    id: `hist-redeem-${i + 1}`,
    reward_id: i % 2 === 0 ? 'hist-reward-5-off' : 'hist-reward-10-pct',
    reward_name: i % 2 === 0 ? '$5 off' : '10% off',
    reward_discount_type: i % 2 === 0 ? 'fixed' : 'percentage',
    points_spent: [500, 200, 800, 200, 300, 1000, 400][i]!,
    discount_code: `HIST-CODE-${i + 1}`,
    status,
    is_refunded: false,
    discount_code_redeemed_at: status === 'used' ? at(i + 2, 15) : null,
    expires_at: i === 0 ? null : at(i + 90),
    redeemed_at: at(i, 9),
  };
});

export const SECOND_EARNING_ID = 'hist-earn-second';
export const SECOND_REWARD_ID = 'hist-redeem-second';
export const CREDIT_EARNING_ID = 'hist-credit-earn-1';
export const CREDIT_REWARD_ID = 'hist-credit-redeem-1';

const earningRules = [
  { id: 'hist-rule-purchase', name: 'Place an order', action: 'purchase', category: 'purchase', points_to_give: 10, created_at: at(-30) },
];

export function historyConfig() {
  return {
    shops: [
      {
        id: 'hist-points',
        name: 'History Points Store',
        loyalty_mode: 'points',
        currency: 'USD',
        referral_base_url: 'https://hist-points.example/',
        api_keys: [
          { name: 'Backend', scope: 'full', key: HISTORY_KEYS.full },
          { name: 'Reporting', scope: 'read', key: HISTORY_KEYS.read },
          { name: 'Old', scope: 'full', key: HISTORY_KEYS.revoked, revoked: true },
        ],
        earning_rules: earningRules,
        rewards: [
          { id: 'hist-reward-5-off', name: '$5 off', points_cost: 500, discount_amount: 5 },
          { id: 'hist-reward-10-pct', name: '10% off', discount_type: 'percentage', points_cost: 200, discount_amount: 10 },
        ],
        platform: {
          customers: Object.values(MEMBERS).map((member, i) => ({
            id: member.id,
            email: member.email,
            first_name: `Hist${i}`,
            last_name: 'Member',
            created_at: at(-100),
          })),
        },
        members: [
          {
            platform_customer_id: MEMBERS.main.id,
            current_points: 900,
            lifetime_points: 4300,
            redeemed_points: 3400,
            enrolled_at: at(-10),
            earning_history: MAIN_EARNINGS,
            reward_history: MAIN_REWARDS,
          },
          {
            platform_customer_id: MEMBERS.second.id,
            current_points: 50,
            lifetime_points: 250,
            redeemed_points: 200,
            enrolled_at: at(-5),
            earning_history: [
              { id: SECOND_EARNING_ID, earning_rule_id: 'hist-rule-purchase', action: 'purchase', points: 250, created_at: at(3) },
            ],
            reward_history: [
              {
                id: SECOND_REWARD_ID,
                reward_id: 'hist-reward-10-pct',
                reward_name: '10% off',
                reward_discount_type: 'percentage',
                points_spent: 200,
                discount_code: 'HIST-SECOND-1',
                redeemed_at: at(4),
              },
            ],
          },
          { platform_customer_id: MEMBERS.empty.id, enrolled_at: at(-5) },
          { platform_customer_id: MEMBERS.adjusted.id, current_points: 100, lifetime_points: 100, enrolled_at: at(-5) },
        ],
      },
      {
        id: 'hist-credit',
        name: 'History Credit Store',
        loyalty_mode: 'store_credit',
        currency: 'EUR',
        referral_base_url: 'https://hist-credit.example/join',
        api_keys: [{ name: 'Credit', scope: 'full', key: HISTORY_KEYS.credit }],
        earning_rules: earningRules,
        rewards: [{ id: 'hist-credit-flex', name: 'Store credit', points_cost: 100, discount_amount: 1 }],
        // Same platform id as the points shop's main member: a different customer of a different shop.
        platform: { customers: [{ id: MEMBERS.main.id, email: 'credit.member@example.com', created_at: at(-100) }] },
        members: [
          {
            platform_customer_id: MEMBERS.main.id,
            current_points: 2550,
            lifetime_points: 3000,
            redeemed_points: 450,
            enrolled_at: at(-10),
            earning_history: [
              {
                id: CREDIT_EARNING_ID,
                earning_rule_id: 'hist-rule-purchase',
                action: 'purchase',
                points: 1250,
                status: 'approved',
                order_id: 'gid-order-9001',
                order_number: '#9001',
                points_given_at: at(1, 13),
                created_at: at(1),
              },
              { id: 'hist-credit-earn-2', action: 'purchase', points: 1750, status: 'pending', created_at: at(2) },
            ],
            reward_history: [
              {
                id: CREDIT_REWARD_ID,
                reward_id: 'hist-credit-flex',
                reward_name: '€4.50 store credit',
                reward_discount_type: 'fixed',
                points_spent: 450,
                discount_code: 'HIST-CREDIT-1',
                status: 'used',
                discount_code_redeemed_at: at(3),
                redeemed_at: at(2),
              },
            ],
          },
        ],
      },
    ],
  };
}
