// What a shopper reads of each history entry: its kind (earned, spent, refunded, expired, adjusted) and a
// customer-facing label made from what the entry is, never from its internal fields (an adjustment's note).
import type { EarningEntry, RewardEntry } from '../../shared/domain/history';
import type { ShopCatalog } from '../../shared/domain/shop';
import { earningLine, rewardLine } from '../../shared/shopper/shopper-activity';

const shop = {
  earningRules: [{ id: 'rule-review', action: 'product_review', name: 'Write a product review' }],
} as unknown as ShopCatalog;

const entry = (fields: Partial<EarningEntry> & Record<string, unknown>): EarningEntry =>
  ({
    id: 'e-1',
    earning_rule_id: null,
    action: 'purchase',
    points: 100,
    base_points: 100,
    points_multiplier: 1,
    status: 'approved',
    order_id: null,
    order_number: null,
    points_due_at: null,
    points_given_at: '2026-01-01T00:00:00.000Z',
    points_expiry_at: null,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...fields,
  }) as EarningEntry;

describe('activity lines', () => {
  it.each([
    ['an order', { action: 'purchase', order_number: '#1101', points: 600 }, 'earned', 'Order #1101'],
    ['a pending order', { action: 'purchase', order_number: '#1342', status: 'pending' as const, points: 100 }, 'earned', 'Order #1342'],
    ["an order's refund taking points back", { action: 'refund', order_number: '#1101', points: -200 }, 'adjusted', 'Order #1101 refunded'],
    ['the signup', { action: 'signup', points: 200 }, 'earned', 'Joined the program'],
    ['a birthday', { action: 'birthday', points: 250 }, 'earned', 'Birthday'],
    ['a referral', { action: 'referral', points: 500 }, 'earned', 'Referral'],
    ['an import', { action: 'import', points: 900 }, 'earned', 'Points brought over'],
    ['an action of a rule', { action: 'product_review', earning_rule_id: 'rule-review', points: 50 }, 'earned', 'Write a product review'],
    ['an action no rule names any more', { action: 'share_a_product', points: 10 }, 'earned', 'Share a product'],
    ['an expiry', { action: 'expiry', points: -300 }, 'expired', 'Points expired'],
    ['a redemption undone', { action: 'reward_refund', points: 500 }, 'refunded', 'Reward refunded'],
    ['a positive adjustment', { action: 'manual_adjustment', points: 25, note: 'secret note' }, 'adjusted', 'Points adjustment'],
    ['a negative adjustment', { action: 'manual_adjustment', points: -25, note: 'secret note' }, 'adjusted', 'Points adjustment'],
  ])('%s', (_name, fields, kind, label) => {
    const line = earningLine(entry(fields), shop);
    expect(line).toMatchObject({ kind, label, points: fields.points });
    expect(JSON.stringify(line)).not.toContain('secret note');
  });

  it("a redemption: spent, the reward's name, the points negative", () => {
    const reward = {
      id: 'r-1',
      reward_name: '$5 off',
      points_spent: 500,
      discount_code: 'LOYAL-5OFF-X1',
      status: 'active',
      created_at: '2026-01-02T00:00:00.000Z',
    } as RewardEntry;
    expect(rewardLine(reward)).toEqual({
      id: 'r-1',
      kind: 'spent',
      points: -500,
      label: '$5 off',
      status: 'active',
      created_at: reward.created_at,
      discount_code: 'LOYAL-5OFF-X1',
    });
  });
});
