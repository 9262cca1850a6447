// Reward-code expiry: an `active` reward-history entry whose expires_at has passed becomes `expired`
// (`reward.expired`). The platform's code carries the same end date, so nothing is asked of the platform.
import { writeCalendarChange } from '../data/calendar-repository';
import { getCustomer } from '../data/customer-repository';
import { withMemberFacts } from '../domain/events';
import type { ItemKey } from '../data/keys';
import { withoutKeys } from '../data/item-reads';
import { expireRewardCode, leaveCodeExpiryWork } from '../data/items/reward-entry';
import type { RewardEntry } from '../domain/history';
import type { DomainEvent } from '../domain/events';
import { type DueJob, type DueJobContext, type DueOutcome, readDueItem } from './due-job';

export const rewardCodeExpiryJob: DueJob = {
  name: 'reward_code_expiry',
  kinds: (_shop, now) => [{ kind: 'code', until: now.toISOString() }],
  handle: expireCode,
};

async function expireCode(key: ItemKey, { shop, shopId, now, customerId }: DueJobContext): Promise<DueOutcome | undefined> {
  const item = await readDueItem(key);
  if (!item) return { changed: false };
  const entry = withoutKeys<RewardEntry>(item);
  if (entry.status === 'active' && entry.expires_at && entry.expires_at > now) return { changed: false };
  const expires = entry.status === 'active';
  // Used or refunded meanwhile: it only leaves the due work. Active: expired, if still active.
  if (!expires)
    return (await writeCalendarChange({ shopId, customerId, writes: [leaveCodeExpiryWork(shopId, key)] })) ? { changed: false } : undefined;
  const expired: DomainEvent = {
    type: 'reward.expired',
    shop_id: shopId,
    customer_id: customerId,
    occurred_at: now,
    reward_history_entry_id: entry.id,
    reward_id: entry.reward_id,
    discount_code: entry.discount_code,
    expires_at: entry.expires_at,
  };
  // The member's facts for the event (the expiry does not change the profile: any recent read will do).
  const member = await getCustomer(shopId, customerId);
  const written = await writeCalendarChange({
    shopId,
    customerId,
    writes: [expireRewardCode(shopId, key, now)],
    events: member ? withMemberFacts([expired], member.record, shop.tiers) : [expired],
  });
  if (!written) return undefined;
  return { changed: true };
}
