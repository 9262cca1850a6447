// Reward-code expiry: an `active` reward-history entry whose expires_at has passed becomes `expired`
// (`reward.expired`). The platform's code carries the same end date, so nothing is asked of the platform.
import { writeCalendarChange } from '../data/calendar-repository';
import type { ItemKey } from '../data/keys';
import { withoutKeys } from '../data/items';
import { expireRewardCode, leaveCodeExpiryWork } from '../data/items/reward-entry';
import type { RewardEntry } from '../domain/history';
import { type DueJob, type DueJobContext, type DueOutcome, readDueItem } from './due-job';

export const rewardCodeExpiryJob: DueJob = {
  name: 'reward_code_expiry',
  kinds: (_shop, now) => [{ kind: 'code', until: now.toISOString() }],
  handle: expireCode,
};

async function expireCode(key: ItemKey, { shopId, now, customerId }: DueJobContext): Promise<DueOutcome | undefined> {
  const item = await readDueItem(key);
  if (!item) return { changed: false };
  const entry = withoutKeys<RewardEntry>(item);
  if (entry.status === 'active' && entry.expires_at && entry.expires_at > now) return { changed: false };
  const expires = entry.status === 'active';
  // Used or refunded meanwhile: it only leaves the due work. Active: expired, if still active.
  const written = await writeCalendarChange({
    shopId,
    customerId,
    writes: [expires ? expireRewardCode(shopId, key, now) : leaveCodeExpiryWork(shopId, key)],
  });
  if (!written) return undefined;
  if (!expires) return { changed: false };
  return {
    changed: true,
    events: [
      {
        type: 'reward.expired',
        shop_id: shopId,
        customer_id: customerId,
        occurred_at: now,
        reward_history_entry_id: entry.id,
        reward_id: entry.reward_id,
        discount_code: entry.discount_code,
        expires_at: entry.expires_at,
      },
    ],
  };
}
