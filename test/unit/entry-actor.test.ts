// Who an earning entry is by, as staff answers say it (docs/admin.md, "By"): the recorded requester, else
// what the entry's action tells.
import type { EarningEntry } from '../../shared/domain/history';
import { entryActor } from '../../shared/history/history-resource';

const entry = (action: string, actor?: EarningEntry['actor']): EarningEntry => ({
  id: 'e1',
  earning_rule_id: null,
  action,
  points: 10,
  base_points: 10,
  points_multiplier: 1,
  status: 'approved',
  order_id: null,
  order_number: null,
  points_due_at: null,
  points_given_at: null,
  points_expiry_at: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  ...(actor ? { actor } : {}),
});

describe('entryActor', () => {
  it('names the recorded staff user or API key', () => {
    expect(entryActor(entry('manual_adjustment', { type: 'staff', id: '42' }))).toEqual({ type: 'staff', id: '42' });
    expect(entryActor(entry('reward_refund', { type: 'api_key', id: 'abc', name: 'Backend' }))).toEqual({
      type: 'api_key',
      id: 'abc',
      name: 'Backend',
    });
  });

  it.each([
    ['purchase', 'shopify'],
    ['refund', 'shopify'],
    ['signup', 'shopify'],
    ['referral', 'shopify'],
    ['expiry', 'system'],
    ['birthday', 'system'],
    ['import', 'system'],
    ['manual_adjustment', 'unknown'],
    ['reward_refund', 'unknown'],
    ['follow_on_instagram', 'unknown'],
  ])('without a recorded requester, %s is by %s', (action, type) => {
    expect(entryActor(entry(action))).toEqual({ type });
  });
});
