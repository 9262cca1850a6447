// A member's activity (GET /shopper/member/activity): their earning and reward history merged, newest
// first, each line with a kind and a customer-facing label. The label is made from what the entry is (an
// order's number, the reward's name, the rule's name), never from an adjustment's note.
import { getCustomer } from '../data/customer-repository';
import { listEarningEntries, listRewardEntries } from '../data/history-repository';
import { customerNotFound } from '../domain/errors';
import type { EarningEntry, RewardEntry } from '../domain/history';
import type { ShopCatalog } from '../domain/shop';

export type ActivityKind = 'earned' | 'spent' | 'refunded' | 'expired' | 'adjusted';

export interface ActivityLine {
  id: string;
  kind: ActivityKind;
  /** Signed: what the line did to the balance (or will, while pending). */
  points: number;
  label: string;
  status: string;
  created_at: string;
  /** A redemption's code, so a spent code is never lost (null on every other line, and on a code-less reward). */
  discount_code: string | null;
}

export interface ActivityPage {
  lines: ActivityLine[];
  total: number;
}

// The actions of the entries other modules write (purchase and refund: shared/orders/order-state.ts;
// manual_adjustment: shared/points; reward_refund: shared/purchases; expiry and birthday: shared/calendar).
const FIXED_LABELS: Record<string, { kind: ActivityKind; label: string }> = {
  signup: { kind: 'earned', label: 'Joined the program' },
  birthday: { kind: 'earned', label: 'Birthday' },
  referral: { kind: 'earned', label: 'Referral' },
  import: { kind: 'earned', label: 'Points brought over' },
  manual_adjustment: { kind: 'adjusted', label: 'Points adjustment' },
  reward_refund: { kind: 'refunded', label: 'Reward refunded' },
  expiry: { kind: 'expired', label: 'Points expired' },
};

/** One earning entry as the shopper sees it. */
export function earningLine(entry: EarningEntry, shop: ShopCatalog): ActivityLine {
  const base = { id: entry.id, points: entry.points, status: entry.status, created_at: entry.created_at, discount_code: null };
  const order = entry.order_number ?? (entry.order_id ? `#${entry.order_id}` : null);
  if (entry.action === 'purchase')
    return { ...base, kind: entry.points < 0 ? 'adjusted' : 'earned', label: order ? `Order ${order}` : 'Order' };
  // Points an order's refund or cancellation took back.
  if (entry.action === 'refund') return { ...base, kind: 'adjusted', label: order ? `Order ${order} refunded` : 'Order refunded' };
  const fixed = FIXED_LABELS[entry.action];
  if (fixed) {
    // A negative line of an earning source (an import's correction, say) is an adjustment.
    const kind = fixed.kind === 'earned' && entry.points < 0 ? 'adjusted' : fixed.kind;
    // The reward's name is on the redemption's own line; the refund line says what happened.
    return { ...base, kind, label: fixed.label };
  }
  // An earning rule's action (a follow, a review…): the rule's name as the merchant wrote it for shoppers.
  const rule = shop.earningRules.find((candidate) => candidate.id === entry.earning_rule_id || candidate.action === entry.action);
  const label = rule?.name ?? humanize(entry.action);
  return { ...base, kind: entry.points < 0 ? 'adjusted' : 'earned', label };
}

/** One redemption as the shopper sees it: the points spent, labelled with the reward's name, with its code. */
export function rewardLine(entry: RewardEntry): ActivityLine {
  return {
    id: entry.id,
    kind: 'spent',
    points: -entry.points_spent,
    label: entry.reward_name,
    status: entry.status,
    created_at: entry.created_at,
    discount_code: entry.discount_code || null,
  };
}

function humanize(action: string): string {
  const words = action.replace(/[_-]+/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : 'Points';
}

/**
 * The member's activity page: the first `offset + size` lines of each history by creation time, newest
 * first, merged and cut; the total is both histories' counts. The member and both histories are read at
 * once. A customer who is not a member: 404.
 */
export async function memberActivity(shop: ShopCatalog, customerId: string, page: { offset: number; size: number }): Promise<ActivityPage> {
  const shopId = shop.settings.id;
  const query = { sort: 'created_at' as const, descending: true, offset: 0, limit: page.offset + page.size };
  // All at once: a customer who is no member has no history either, so the reads cost nothing extra then.
  const [member, earning, rewards] = await Promise.all([
    getCustomer(shopId, customerId),
    listEarningEntries(shopId, customerId, query),
    listRewardEntries(shopId, customerId, query),
  ]);
  if (!member) throw customerNotFound(customerId);
  const lines = [...earning.entries.map((entry) => earningLine(entry, shop)), ...rewards.entries.map(rewardLine)].sort((a, b) =>
    a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : a.id < b.id ? 1 : -1,
  );
  return { lines: lines.slice(page.offset, page.offset + page.size), total: earning.total + rewards.total };
}
