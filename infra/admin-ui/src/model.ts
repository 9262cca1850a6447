// What the page reads of the service's answers (the spec's customer and history entries, the contract's
// overview), and the figures it derives from them. Pure: tested without a browser. The answers' types are the
// server's own (shared/openapi/client-types.ts), imported as types only: nothing of the server enters the bundle.
import type {
  Customer as CustomerAnswer,
  EntryActor,
  ListedMember,
  MemberListMeta,
  PointsAdjustment,
  ProgramOverview,
  StaffEarningHistoryEntry,
  StaffRewardHistoryEntry,
  VipTier,
} from '../../../shared/openapi/client-types';

/**
 * A customer as the page reads it: the spec's customer object (`GET /admin/api/v1/customers/{id}`), and on the
 * member list's answers (`GET /admin/api/members`) the last earning or spending, else the enrolment.
 */
export type Customer = CustomerAnswer & Partial<Pick<ListedMember, 'last_activity_at'>>;

/**
 * Who made an entry, as `/admin/api/v1` answers it: a staff user, an API key (by its name), the customer (their
 * own redemption), Shopify (an order, a customer webhook), the system (a job, an import), or unknown (made before
 * requesters were recorded).
 */
export type Actor = EntryActor;

/** The member list's `meta` (its next page's cursor, the shop's currency) and an adjustment's answer, as the page reads them. */
export type { MemberListMeta, PointsAdjustment, VipTier };

/** Who an entry is by, in staff's words (the "By" column). */
export function actorLabel(actor: Actor | null): string {
  if (!actor) return '—';
  switch (actor.type) {
    case 'staff':
      return `Staff user ${actor.id ?? ''}`.trim();
    case 'api_key':
      return actor.name ? `API key “${actor.name}”` : 'An API key';
    case 'shopify':
      return 'Shopify';
    case 'system':
      return 'System';
    case 'customer':
      return 'Customer';
    default:
      return 'Not recorded';
  }
}

/** A status word as staff read it: capitalised, with its spaces (`active` → `Active`). */
export function statusWord(status: string): string {
  const words = status.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** An earning history entry as the staff mirror answers it, read down to what the page shows. */
export type EarningEntry = Pick<
  StaffEarningHistoryEntry,
  'action' | 'points' | 'status' | 'order_number' | 'points_due_at' | 'points_given_at' | 'points_expiry_at' | 'created_at'
> &
  Partial<Pick<StaffEarningHistoryEntry, 'note' | 'actor'>>;

/**
 * A reward history entry as the staff mirror answers it, read down to what the page shows. `discount_code` is
 * null for store credit, which is credited to the customer's Shopify account.
 */
export type RewardEntry = Pick<
  StaffRewardHistoryEntry,
  'reward_name' | 'points_spent' | 'discount_code' | 'status' | 'is_refunded' | 'discount_code_redeemed_at' | 'created_at'
> &
  Partial<Pick<StaffRewardHistoryEntry, 'reward_discount_type' | 'expires_at' | 'actor'>>;

export interface Activity {
  id: string;
  at: string;
  kind: string;
  points: number;
  status: string;
  detail: string;
  note: string | null;
  actor: Actor | null;
}

const ACTION_LABELS: Record<string, string> = {
  purchase: 'Order',
  signup: 'Signup',
  birthday: 'Birthday',
  referral: 'Referral',
  manual_adjustment: 'Adjustment',
  reward_refund: 'Reward refunded',
  import: 'Import',
  expiry: 'Expired',
};

/** An earning action in staff's words: the known ones named, another one as it is written. */
export function actionLabel(action: string): string {
  return ACTION_LABELS[action] ?? action.replace(/_/g, ' ').replace(/^./, (first) => first.toUpperCase());
}

/** The earning and reward history merged, newest first. */
export function mergeActivity(
  earning: Array<{ id: string; attributes: EarningEntry }>,
  rewards: Array<{ id: string; attributes: RewardEntry }>,
): Activity[] {
  const earned = earning.map(({ id, attributes: entry }) => ({
    id: `earning-${id}`,
    at: entry.created_at,
    kind: actionLabel(entry.action),
    points: entry.points,
    status: entry.status,
    detail: entry.order_number ? `Order ${entry.order_number}` : '',
    note: entry.note ?? null,
    actor: entry.actor ?? null,
  }));
  const spent = rewards.map(({ id, attributes: entry }) => ({
    id: `reward-${id}`,
    at: entry.created_at,
    kind: 'Reward',
    points: -entry.points_spent,
    status: entry.is_refunded ? 'refunded' : entry.status,
    detail: `${entry.reward_name} (${entry.discount_code ?? 'credited'})`,
    note: null,
    actor: entry.actor ?? null,
  }));
  return [...earned, ...spent].sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
}

/** Points earned and waiting for approval. */
export function pendingPoints(earning: readonly EarningEntry[]): number {
  return earning.filter((entry) => entry.status === 'pending').reduce((sum, entry) => sum + entry.points, 0);
}

/**
 * The approved points that expire first and when: the earliest future `points_expiry_at` among the
 * approved entries and the points of those entries, never more than the balance; null when none expires.
 */
export function expiringPoints(earning: readonly EarningEntry[], balance: number, now: Date): { points: number; at: string } | null {
  const future = earning.filter(
    (entry) =>
      entry.status === 'approved' &&
      entry.points > 0 &&
      entry.points_expiry_at !== null &&
      Date.parse(entry.points_expiry_at) > now.getTime(),
  );
  if (future.length === 0 || balance <= 0) return null;
  const at = future.map((entry) => entry.points_expiry_at!).sort()[0]!;
  const points = future.filter((entry) => entry.points_expiry_at === at).reduce((sum, entry) => sum + entry.points, 0);
  return { points: Math.min(points, balance), at };
}

/** A reward staff may refund: active, not refunded, its code not used; store credit while not refunded and not past its end. */
export function refundable(entry: RewardEntry, now = new Date()): boolean {
  if (entry.reward_discount_type === 'store_credit')
    return !entry.is_refunded && (!entry.expires_at || Date.parse(entry.expires_at) > now.getTime());
  return entry.status === 'active' && !entry.is_refunded && entry.discount_code_redeemed_at === null;
}

export function customerName(customer: Customer): string {
  const name = [customer.first_name, customer.last_name].filter(Boolean).join(' ');
  return name || customer.email || `Customer ${customer.platform_customer_id}`;
}

/** The staff member's own locale (the browser's), for dates and numbers. */
/**
 * The staff member's locale, if Intl takes it: a browser started under a POSIX locale reports tags such as
 * `en-US@posix`, which every Intl constructor refuses (a RangeError); those fall back to Intl's default.
 */
export function staffLocale(tag: string | undefined): string | undefined {
  if (!tag) return undefined;
  try {
    return Intl.getCanonicalLocales(tag)[0];
  } catch {
    const base = tag.split('@')[0];
    try {
      return base ? Intl.getCanonicalLocales(base)[0] : undefined;
    } catch {
      return undefined;
    }
  }
}
const locale = (): string | undefined => staffLocale(typeof navigator === 'undefined' ? undefined : navigator.language);

/**
 * A day in the staff member's locale (`12 Mar 2026`, `Mar 12, 2026`): a calendar date (`YYYY-MM-DD`, a birthday)
 * as it is written, a time on the staff member's own calendar.
 */
export function formatDate(iso: string | null, language: string | undefined = locale()): string {
  if (!iso) return '—';
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(iso);
  const at = Date.parse(dateOnly ? `${iso}T00:00:00Z` : iso);
  if (Number.isNaN(at)) return iso;
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', ...(dateOnly ? { timeZone: 'UTC' } : {}) }).format(at);
}

/** A day and time in the staff member's locale. */
export function formatDateTime(iso: string | null, language: string | undefined = locale()): string {
  if (!iso) return '—';
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(at);
}

export function formatPoints(points: number, language: string | undefined = locale()): string {
  return new Intl.NumberFormat(language).format(points);
}

/** An amount (a decimal string of the API) in the shop's currency, in the staff member's locale. */
export function formatMoney(amount: string, currency: string, language: string | undefined = locale()): string {
  const value = Number(amount);
  if (!Number.isFinite(value)) return `${amount} ${currency}`;
  try {
    return new Intl.NumberFormat(language, { style: 'currency', currency }).format(value);
  } catch {
    return `${amount} ${currency}`;
  }
}

/**
 * What an adjustment really did, said to staff: the balance floor may have taken less than asked
 * (`applied` is what the answer says was applied).
 */
export function adjustmentOutcome(requested: number, applied: number, after: number): string {
  const balance = `The balance is now ${formatPoints(after)} points.`;
  if (applied === requested) {
    return requested > 0
      ? `Added ${formatPoints(requested)} points. ${balance}`
      : `Deducted ${formatPoints(-requested)} points. ${balance}`;
  }
  return `Took ${formatPoints(-applied)} of ${formatPoints(requested)}: the balance cannot go below 0. ${balance}`;
}

/** What a deduction will do, said before it is made: all of it, or only the balance (the floor is 0). */
export function deductionPreview(points: number, balance: number): string {
  if (points <= balance)
    return `Deduct ${formatPoints(points)} points: the balance goes from ${formatPoints(balance)} to ${formatPoints(balance - points)}.`;
  return `The balance is ${formatPoints(balance)} points and cannot go below 0: only ${formatPoints(balance)} of the ${formatPoints(points)} points will be taken.`;
}

/** `GET /admin/api/overview`'s attributes (SURFACES-CONTRACT.md, "The program's figures"). */
export type Overview = ProgramOverview;

export function issuedTotal(overview: Overview): number {
  return Object.values(overview.in_range.issued).reduce((sum, points) => sum + points, 0);
}

/** Round steps for an axis up to `peak`: 0, a quarter, a half… of a round maximum. */
export function axisTicks(peak: number): number[] {
  const top = Math.max(1, peak);
  const magnitude = 10 ** Math.floor(Math.log10(top));
  const nice = [1, 2, 2.5, 5, 10].map((factor) => factor * magnitude).find((candidate) => candidate >= top) ?? top;
  return [0, nice / 2, nice];
}

export function percent(rate: number): string {
  return `${(rate * 100).toFixed(1)} %`;
}

/** The range's first and last UTC day for the last `days` days up to today. */
export function rangeOf(days: number, now: Date): { from: string; to: string } {
  const to = now.toISOString().slice(0, 10);
  const from = new Date(Date.parse(`${to}T00:00:00Z`) - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  return { from, to };
}

/** The views behind the address's hash: the overview, a search, one member. */
export type Route = { view: 'overview' } | { view: 'search'; query: string } | { view: 'customer'; id: string };

/** The member list's sorts (`GET /admin/api/members`): what each orders by. */
export const MEMBER_SORTS = [
  { key: 'points', label: 'Points' },
  { key: 'last_activity', label: 'Last activity' },
  { key: 'joined', label: 'Joined' },
] as const;
export type MemberSortKey = (typeof MEMBER_SORTS)[number]['key'];

export interface MemberListQuery {
  sort: MemberSortKey;
  descending: boolean;
  /** `member`, `excluded` or '' (both). */
  status: string;
  /** A tier id, `none`, or '' (every tier). */
  tier: string;
  size: number;
}

/**
 * The member list's address for a query and a page's cursor. A tier is listed by last activity (the index
 * the service keeps per tier): with a tier the sort is last activity.
 */
export function membersPath(query: MemberListQuery, cursor: string | null): string {
  const sort = query.tier ? 'last_activity' : query.sort;
  const parameters = [`sort=${query.descending ? '-' : ''}${sort}`, `page[size]=${query.size}`];
  if (query.status) parameters.push(`filter[loyalty_status]=${encodeURIComponent(query.status)}`);
  if (query.tier) parameters.push(`filter[tier]=${encodeURIComponent(query.tier)}`);
  if (cursor) parameters.push(`page[cursor]=${encodeURIComponent(cursor)}`);
  return `/members?${parameters.join('&')}`;
}

/** The view a hash names (`#/`, `#/customers?q=…`, `#/customers/{id}`). */
export function routeOf(hash: string): Route {
  const path = hash.replace(/^#/, '');
  const customer = /^\/customers\/([^/?]+)$/.exec(path);
  if (customer) return { view: 'customer', id: decodeURIComponent(customer[1]!) };
  const search = /^\/customers(?:\?q=(.*))?$/.exec(path);
  if (search) return { view: 'search', query: decodeURIComponent(search[1] ?? '') };
  return { view: 'overview' };
}

/**
 * The view the page opens on: its hash's, or, without one, the member its address names with `customer=`
 * (the admin block's link on Shopify's customer page, `app:?customer=<id>`).
 */
export function initialRoute(hash: string, search: string): Route {
  const customer = new URLSearchParams(search).get('customer');
  if (hash.replace(/^#\/?/, '') === '' && customer) return { view: 'customer', id: customer };
  return routeOf(hash);
}
