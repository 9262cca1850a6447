// What the page reads of the service's answers (the spec's customer and history entries, the contract's
// overview), and the figures it derives from them. Pure: tested without a browser.

export interface Customer {
  platform_customer_id: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  current_points: number;
  lifetime_points: number;
  redeemed_points: number;
  loyalty_status: 'member' | 'excluded';
  loyalty_mode: string;
  date_of_birth: string | null;
  vip_tier: { id: string; name: string } | null;
  created_at: string;
}

/** Who made an adjustment, as `/admin/api/v1` answers it (absent on entries no one made by hand). */
export interface Actor {
  type: string;
  id: string;
}

export interface EarningEntry {
  action: string;
  points: number;
  status: 'pending' | 'approved' | 'rejected';
  order_number: string | null;
  points_due_at: string | null;
  points_given_at: string | null;
  points_expiry_at: string | null;
  created_at: string;
  note?: string | null;
  actor?: Actor | null;
}

export interface RewardEntry {
  reward_name: string;
  points_spent: number;
  discount_code: string;
  status: 'active' | 'used' | 'expired';
  is_refunded: boolean;
  discount_code_redeemed_at: string | null;
  created_at: string;
}

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
    detail: `${entry.reward_name} (${entry.discount_code})`,
    note: null,
    actor: null,
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

/** A reward staff may refund: active, not refunded, its code not used. */
export function refundable(entry: RewardEntry): boolean {
  return entry.status === 'active' && !entry.is_refunded && entry.discount_code_redeemed_at === null;
}

export function customerName(customer: Customer): string {
  const name = [customer.first_name, customer.last_name].filter(Boolean).join(' ');
  return name || customer.email || `Customer ${customer.platform_customer_id}`;
}

export function formatDate(iso: string | null): string {
  return iso ? iso.slice(0, 10) : '—';
}

export function formatPoints(points: number): string {
  return points.toLocaleString('en-US');
}

/** `GET /admin/api/overview`'s attributes (SURFACES-CONTRACT.md, "The program's figures"). */
export interface Overview {
  members: { total: number; new: number; excluded: number };
  points_outstanding: number;
  points_pending: number;
  liability: { amount: string; currency: string; point_value: string };
  in_range: {
    issued: Record<string, number>;
    redeemed: number;
    expired: number;
    clawed_back: number;
    redemptions: number;
    codes_used: number;
    member_orders: number;
    member_revenue: string;
    loyalty_orders: number;
    loyalty_revenue: string;
  };
  redemption_rate: number;
  repeat_purchase_rate: number;
  daily: Array<{ date: string; issued: number; redeemed: number; expired: number; new_members: number; member_revenue: string }>;
}

export function issuedTotal(overview: Overview): number {
  return Object.values(overview.in_range.issued).reduce((sum, points) => sum + points, 0);
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
