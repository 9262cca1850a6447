// The load runs' event audit refuses an event about a member without the member facts the contract requires
// (EVENTS-CONTRACT.md, "An event": email, first_name, points_balance, tier): eventsLackingMemberFacts of
// test/support/committed-events.ts, which auditEvents (test/support/invariants-load.ts) holds every listed event to.
import { eventsLackingMemberFacts } from '../support/committed-events';

const facts = { email: 'ada@example.com', first_name: 'Ada', points_balance: 1240, tier: { id: 'gold', name: 'Gold' } };
const common = { shop_id: 'demo', customer_id: '1001', occurred_at: '2026-11-27T10:00:00.000Z', notify: true };

describe('the event audit, member facts', () => {
  it('passes an event with every fact, a tier of null, an empty first name, and customer.erased without any', () => {
    expect(
      eventsLackingMemberFacts([
        { id: 'a', type: 'reward.used', ...common, ...facts },
        { id: 'b', type: 'reward.purchased', ...common, ...facts, tier: null, first_name: '' },
        { id: 'c', type: 'customer.erased', ...common, notify: false },
      ]),
    ).toEqual([]);
  });

  it('names each event about a member that lacks a fact, and which', () => {
    const { first_name: _name, ...noName } = facts;
    const { tier: _tier, ...noTier } = facts;

    expect(
      eventsLackingMemberFacts([
        { id: 'used', type: 'reward.used', ...common, ...noName },
        { id: 'refunded', type: 'reward.refunded', ...common, ...noTier },
        { id: 'purchased', type: 'reward.purchased', ...common, ...facts, points_balance: '1240', email: null },
        { id: 'tier', type: 'tier.changed', ...common, ...facts, tier: 'gold' },
        { id: 'bare', type: 'points.expired', ...common },
      ]),
    ).toEqual([
      { id: 'used', type: 'reward.used', lacks: ['first_name'] },
      { id: 'refunded', type: 'reward.refunded', lacks: ['tier'] },
      { id: 'purchased', type: 'reward.purchased', lacks: ['email', 'points_balance'] },
      { id: 'tier', type: 'tier.changed', lacks: ['tier'] },
      { id: 'bare', type: 'points.expired', lacks: ['email', 'first_name', 'points_balance', 'tier'] },
    ]);
  });
});
