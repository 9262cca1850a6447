// The named writes of the points, orders and calendar item modules: each leaves its item with the due work
// its module's one derive gives (the same as a put of the item would), refuses under the condition the
// features need, and is named for what it does, so a refusal says which write it was.
process.env.TABLE_NAME ??= 'named-writes-test';

import { moveBirthdayTimer, birthdayTimerItem, removeBirthdayTimer } from '../../shared/data/items/birthday-timer';
import { customerItem } from '../../shared/data/items/customer-profile';
import { duePartition } from '../../shared/data/items/due';
import {
  approvePendingEntry,
  closeBatch,
  earningEntryItem,
  earningEntryKey,
  entryDue,
  leaveApprovalWork,
  markBatchReminded,
  postponeEntryDue,
  recordEarningEntry,
  recordEntryName,
  revisePendingEntry,
} from '../../shared/data/items/earning-entry';
import { APPLY_QUEUED_ADJUSTMENTS, applyQueuedAdjustments, writeMemberBalance } from '../../shared/data/items/member-balance';
import { recordOrderCustomer, writeOrder } from '../../shared/data/items/order';
import { recordReferralAward, RECORD_REFERRAL_AWARD } from '../../shared/data/items/referral';
import { expireRewardCode, leaveCodeExpiryWork, rewardEntryKey, useRewardCode } from '../../shared/data/items/reward-entry';
import type { Write } from '../../shared/data/write';
import { approvedEntry, type EarningEntry } from '../../shared/domain/history';
import { customerRecord } from '../fixtures/customer-record';

const SHOP = 'shop-a';
const CUSTOMER = '501';
const NOW = '2026-03-01T12:00:00.000Z';

/** What an update write leaves on its item: attributes set (by name) and removed, with its condition and values. */
function updateOf(write: Write) {
  const update = write.request.Update!;
  const names = update.ExpressionAttributeNames ?? {};
  const values = (update.ExpressionAttributeValues ?? {}) as Record<string, unknown>;
  const set: Record<string, unknown> = {};
  const remove: string[] = [];
  const expression = update.UpdateExpression!;
  const setPart = /SET (.*?)(?: REMOVE | ADD |$)/.exec(expression)?.[1] ?? '';
  for (const assignment of setPart.split(', ').filter(Boolean)) {
    const [name, value] = assignment.split(' = ') as [string, string];
    set[names[name] ?? name] = values[value];
  }
  const removePart = /REMOVE (.*?)(?: ADD |$)/.exec(expression)?.[1] ?? '';
  for (const name of removePart.split(', ').filter(Boolean)) remove.push(names[name] ?? name);
  return { key: update.Key, set, remove, condition: update.ConditionExpression!, values, names };
}

const batch = (overrides: Partial<EarningEntry> = {}): EarningEntry => ({
  ...approvedEntry({ id: 'e1', earning_rule_id: 'r1', action: 'order', points: 120, base_points: 120, points_multiplier: 1 }, NOW),
  points_expiry_at: '2026-09-01T12:00:00.000Z',
  ...overrides,
});

const pending = (overrides: Partial<EarningEntry> = {}): EarningEntry =>
  batch({ status: 'pending', points_given_at: null, points_due_at: '2026-03-15T12:00:00.000Z', ...overrides });

describe('earning entry writes', () => {
  const key = earningEntryKey(SHOP, CUSTOMER, 'e1');

  test('recording an entry puts the item a put of it stores, refused if it exists, named by its id', () => {
    const write = recordEarningEntry(SHOP, CUSTOMER, batch());
    expect(write.name).toBe(recordEntryName('e1'));
    expect(recordEntryName('e1')).not.toBe(recordEntryName('e2'));
    expect(write.request.Put?.Item).toEqual(earningEntryItem(SHOP, CUSTOMER, batch()));
    expect(write.request.Put?.ConditionExpression).toBe('attribute_not_exists(pk)');
  });

  test('marking a batch reminded moves it from its reminder to its expiry, as a put of the reminded batch would', () => {
    const update = updateOf(markBatchReminded(SHOP, key, batch()));
    const put = earningEntryItem(SHOP, CUSTOMER, { ...batch(), expiry_reminded: true } as EarningEntry);
    expect(update.set).toEqual({ expiry_reminded: true, due_pk: put.due_pk, due_at: put.due_at });
    expect(put.due_pk).toBe(duePartition(SHOP, 'batch-expire'));
    expect(update.remove).toEqual([]);
    expect(update.condition).toBe('#due_pk = :duePk');
    expect(update.values[':duePk']).toBe(duePartition(SHOP, 'batch-remind'));
  });

  test('closing a batch takes it out of the due work, only from the partition it was read in', () => {
    const update = updateOf(closeBatch(SHOP, key, 'batch-expire', { expired_points: 40, updated_at: NOW }));
    expect(update.set).toEqual({ batch_closed: true, expired_points: 40, updated_at: NOW });
    expect(update.remove).toEqual(['due_pk', 'due_at']);
    expect(entryDue(SHOP, { ...batch(), batch_closed: true })).toBeNull();
    expect(update.values[':duePk']).toBe(duePartition(SHOP, 'batch-expire'));
  });

  test('postponing keeps the kind the entry derives and moves only its time', () => {
    const later = '2026-03-16T12:00:00.000Z';
    const approval = updateOf(postponeEntryDue(SHOP, key, pending(), 'approval', later));
    expect(approval.set).toEqual({ due_pk: duePartition(SHOP, 'approval'), due_at: `${later}#e1` });
    const frozen = updateOf(postponeEntryDue(SHOP, key, batch(), 'batch-remind', later));
    expect(frozen.set).toEqual({ due_pk: duePartition(SHOP, 'batch-remind'), due_at: `${later}#e1` });
    expect(frozen.values[':duePk']).toBe(duePartition(SHOP, 'batch-remind'));
  });

  test('leaving the approval work removes the due work, only while it is still in the approval partition', () => {
    const update = updateOf(leaveApprovalWork(SHOP, key));
    expect(update.set).toEqual({});
    expect(update.remove).toEqual(['due_pk', 'due_at']);
    expect(update.values[':duePk']).toBe(duePartition(SHOP, 'approval'));
  });

  test('approving writes what a put of the approved entry stores, while still pending with the points read', () => {
    const approved = batch();
    const update = updateOf(approvePendingEntry(SHOP, CUSTOMER, approved, 120));
    const { pk, sk, ...stored } = earningEntryItem(SHOP, CUSTOMER, approved);
    expect(update.key).toEqual({ pk, sk });
    expect(update.set).toEqual(stored);
    expect(update.remove).toEqual([]);
    expect(update.condition).toBe('#status = :pending AND #points = :points');
    expect(update.values).toMatchObject({ ':pending': 'pending', ':points': 120 });
    // Approved without an expiry: no batch, nothing due, so the approval work goes.
    const noExpiry = updateOf(approvePendingEntry(SHOP, CUSTOMER, batch({ points_expiry_at: null }), 120));
    expect(noExpiry.remove).toEqual(['due_pk', 'due_at']);
    expect(noExpiry.set).not.toHaveProperty('due_pk');
  });

  test("an order's revision keeps a pending entry's approval and takes a rejected one out of the due work", () => {
    const kept = updateOf(revisePendingEntry(SHOP, CUSTOMER, { entry_id: 'e1', status: 'pending', points: 80, base_points: 80 }, NOW));
    expect(kept.set).toEqual({ status: 'pending', points: 80, base_points: 80, earn_points: 80, updated_at: NOW });
    expect(kept.remove).toEqual([]);
    const rejected = updateOf(revisePendingEntry(SHOP, CUSTOMER, { entry_id: 'e1', status: 'rejected', points: 0, base_points: 0 }, NOW));
    expect(rejected.remove).toEqual(['due_pk', 'due_at']);
    expect(entryDue(SHOP, { ...pending(), status: 'rejected' })).toBeNull();
    expect(rejected.condition).toBe('#status = :pending');
  });
});

describe('reward entry, birthday timer, order and referral writes', () => {
  test('a used or expired code leaves the code-expiry work; expiry only while active and still due', () => {
    const used = updateOf(useRewardCode(SHOP, CUSTOMER, 'r1', NOW, NOW));
    expect(used.key).toEqual(rewardEntryKey(SHOP, CUSTOMER, 'r1'));
    expect(used.set).toEqual({ status: 'used', discount_code_redeemed_at: NOW, updated_at: NOW });
    expect(used.remove).toEqual(['due_pk', 'due_at']);
    expect(used.condition).toContain('#status = :active');
    const key = rewardEntryKey(SHOP, CUSTOMER, 'r1');
    const expired = updateOf(expireRewardCode(SHOP, key, NOW));
    expect(expired.set).toEqual({ status: 'expired', updated_at: NOW });
    expect(expired.condition).toBe('#due_pk = :duePk AND #status = :active');
    expect(expired.values[':duePk']).toBe(duePartition(SHOP, 'code'));
    expect(updateOf(leaveCodeExpiryWork(SHOP, key)).remove).toEqual(['due_pk', 'due_at']);
  });

  test('the birthday timer moves to what a put of it on that day derives, only if unchanged since read', () => {
    const moved = updateOf(moveBirthdayTimer(SHOP, CUSTOMER, '2026-03-01#501', '2026-03-02'));
    const put = birthdayTimerItem(SHOP, CUSTOMER, '2026-03-02');
    expect(moved.set).toEqual({ due_pk: put.due_pk, due_at: put.due_at });
    expect(moved.values[':read']).toBe('2026-03-01#501');
    expect(removeBirthdayTimer(SHOP, CUSTOMER).request.Delete?.Key).toEqual({ pk: put.pk, sk: put.sk });
  });

  test('the order is written new (refused if it exists) or at the version read, its lookup only the first time', () => {
    expect(writeOrder(SHOP, CUSTOMER, 'o1', { a: 1 }, null).request.Put).toMatchObject({ ConditionExpression: 'attribute_not_exists(pk)' });
    const again = writeOrder(SHOP, CUSTOMER, 'o1', { a: 1 }, 3).request.Put!;
    expect(again.Item).toMatchObject({ version: 4 });
    expect(again.ExpressionAttributeValues).toEqual({ ':version': 3 });
    expect(recordOrderCustomer(SHOP, 'o1', CUSTOMER).request.Put?.Item).toMatchObject({ customer_id: CUSTOMER });
  });

  test('the referral award guard is a put refused when the award was made, named so the refusal says so', () => {
    const write = recordReferralAward(SHOP, 'friend', CUSTOMER, 'o1');
    expect(write.name).toBe(RECORD_REFERRAL_AWARD);
    expect(write.request.Put?.ConditionExpression).toBe('attribute_not_exists(pk)');
  });
});

describe('profile writes of a points change', () => {
  const read = { record: customerRecord({ platform_customer_id: CUSTOMER, current_points: 0 }), version: 4 };

  test("applying queued adjustments keeps the profile's due work as a put of the next figures derives it", () => {
    const next = { ...read.record, current_points: 50, points_expire_at: '2026-06-01T00:00:00.000Z' };
    const write = applyQueuedAdjustments({ read, next, removedIds: ['q1'], receipts: [] });
    expect(write.name).toBe(APPLY_QUEUED_ADJUSTMENTS);
    const update = updateOf(write);
    const put = customerItem(next, 5);
    expect(update.set).toMatchObject({ current_points: 50, due_pk: put.due_pk, due_at: put.due_at });
    expect(update.remove).not.toContain('due_pk');
    expect(write.request.Update?.ReturnValuesOnConditionCheckFailure).toBe('ALL_OLD');
    const spent = updateOf(applyQueuedAdjustments({ read, next: { ...next, current_points: 0 }, removedIds: ['q1'], receipts: [] }));
    expect(spent.remove).toEqual(expect.arrayContaining(['due_pk', 'due_at']));
    expect(spent.set).not.toHaveProperty('due_pk');
  });

  test("the member's balance is put at the version read, never with a changed address", () => {
    const write = writeMemberBalance(read, { ...read.record, current_points: 10 });
    expect(write.request.Put?.Item).toEqual(customerItem({ ...read.record, current_points: 10 }, 5));
    expect(() => writeMemberBalance(read, { ...read.record, email: 'other@example.com' })).toThrow(/address/);
  });
});
