// The extensions' one way to the service: the /shopper routes of docs/storefront.md, called with an
// absolute URL and the customer's session token as a bearer token. Pure of the extension host (the
// token and fetch come in as functions), so the same code runs in Shopify's worker, in the test
// harness's page and in jest against the twin.

/** A rule of the program as `GET /shopper/program` lists it. */
export interface EarningRule {
  id: string;
  name: string;
  action: string;
  customer_facing_label: string | null;
  call_to_action_url: string | null;
  /** The points this shopper gets now (tier and campaign included); a per-spend rule's for each whole `spend_unit`. */
  points: number;
  spend_unit: number | null;
}

/** The campaign running now, which every figure of the program includes. */
export interface ProgramCampaign {
  id: string;
  name: string;
  multiplier: number;
  ends_at: string;
}

export interface ProgramReward {
  id: string;
  name: string;
  description: string | null;
  discount_type: string;
  discount_amount: number;
  minimum_spend: number;
  redemption_mode: string;
  points_cost: number;
  /** `points_per_unit`: the points one unit of the discount costs (the chooser's step); absent from an older service. */
  flexible: { min_points: number; max_points: number; points_per_unit?: number } | null;
  vip_tier_id: string | null;
  expiry_days: number | null;
}

export interface ProgramTier {
  id: string;
  name: string;
  threshold: number;
  points_multiplier: number;
  badge_color: string | null;
  badge_image_url: string | null;
}

export interface Program {
  id: string;
  loyalty_mode: string;
  currency: string;
  earning_rules: EarningRule[];
  campaign: ProgramCampaign | null;
  rewards: ProgramReward[];
  vip_tiers: ProgramTier[];
}

export interface MemberTier {
  id: string;
  name: string;
}

export interface Member {
  id: string;
  first_name: string | null;
  current_points: number;
  lifetime_points: number;
  pending_points: number;
  loyalty_status: string;
  vip_tier: MemberTier | null;
  next_tier: { id: string; name: string; threshold: number; remaining: number } | null;
  referral_url: string | null;
  referral_code: string | null;
  points_expiring: { points: number; at: string } | null;
  redeemable_reward_ids: string[];
}

/** `GET /shopper/member`: who the token names, and the member when there is one. */
export interface MemberAnswer {
  loggedIn: boolean;
  member: Member | null;
}

export type ActivityKind = 'earned' | 'spent' | 'refunded' | 'expired' | 'adjusted';

export interface ActivityEntry {
  id: string;
  kind: ActivityKind;
  points: number;
  label: string;
  status: string;
  created_at: string;
  /** A redemption's code (null on other lines). */
  discount_code: string | null;
}

export interface ActivityPage {
  entries: ActivityEntry[];
  page: number;
  /** Whether a later page exists: from `meta.total_pages` when the answer has it, else from a full page. */
  hasMore: boolean;
}

export interface Redemption {
  id: string;
  reward_id: string;
  reward_name: string;
  points_spent: number;
  /** Null for store credit, which is credited to the customer's account. */
  discount_code: string | null;
  expires_at: string | null;
  status: string;
}

/** A code the member bought and can still use (GET /shopper/member/rewards). */
export interface OwnedReward {
  id: string;
  reward_id: string;
  reward_name: string;
  discount_code: string;
  discount_type: string;
  discount_value: number | null;
  minimum_spend: number | null;
  points_spent: number;
  expires_at: string | null;
  created_at: string;
}

/**
 * What went wrong, as the page tells the customer: the status and the service's detail are kept for
 * logs and tests, the kind picks the sentence shown (the details are written for developers).
 */
export type ShopperErrorKind =
  | 'sign_in' // 401: no signed-in customer, or a token the service refused
  | 'not_member' // 404 on a member route
  | 'not_found' // 404 elsewhere (a reward gone since the page loaded)
  | 'not_allowed' // 403: excluded, not on the reward's tier
  | 'insufficient' // 422: not enough points, or points out of range
  | 'throttled' // 429
  | 'unavailable' // 5XX: the service or Shopify could not do it now; nothing was spent
  | 'invalid' // any other 4XX
  | 'network'; // no answer at all, or not the service's JSON

export class ShopperApiError extends Error {
  constructor(
    readonly kind: ShopperErrorKind,
    readonly status: number,
    readonly detail: string,
  ) {
    super(`${kind} (${status}): ${detail}`);
    this.name = 'ShopperApiError';
  }
}

export interface ShopperApiOptions {
  /** The service's API URL, without `/shopper` (src/service-url.ts). */
  serviceUrl: string;
  /** A fresh session token for every request, as Shopify asks (`shopify.sessionToken.get`). */
  sessionToken: () => Promise<string>;
  /** The transport (the host's fetch when absent). */
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
}

export interface ShopperApi {
  program(): Promise<Program>;
  member(): Promise<MemberAnswer>;
  /** Enrols the signed-in customer; `created` is false when they already were a member. */
  join(): Promise<{ created: boolean; member: Member }>;
  activity(page: number, size?: number): Promise<ActivityPage>;
  /** A page of the member's codes still to use, newest first, and whether a later page exists. */
  rewards(page?: number, size?: number): Promise<{ codes: OwnedReward[]; hasMore: boolean }>;
  /** `idempotencyKey`: the same key for a retry of the same redemption, so it is never spent twice. */
  redeem(rewardId: string, options: { idempotencyKey: string; points?: number }): Promise<Redemption>;
}

interface Resource<T> {
  id: string;
  attributes: Omit<T, 'id'>;
}

export function createShopperApi(options: ShopperApiOptions): ShopperApi {
  const base = `${options.serviceUrl.replace(/\/+$/, '')}/shopper`;
  const send = options.fetch ?? ((url: string, init: RequestInit) => fetch(url, init));

  async function call(
    route: string,
    path: string,
    init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; body: { data?: unknown; meta?: Record<string, unknown> } }> {
    const token = await options.sessionToken();
    const headers: Record<string, string> = { Accept: 'application/json', Authorization: `Bearer ${token}`, ...init.headers };
    if (init.body !== undefined) headers['Content-Type'] = 'application/json';
    let response: Response;
    try {
      response = await send(`${base}/${path}`, {
        method: init.method ?? 'GET',
        headers,
        ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
      });
    } catch (error) {
      throw new ShopperApiError('network', 0, error instanceof Error ? error.message : String(error));
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      throw new ShopperApiError('network', response.status, `answer ${response.status} is not JSON`);
    }
    if (!response.ok) {
      const detail = errorDetail(body) ?? `HTTP ${response.status}`;
      throw new ShopperApiError(errorKind(response.status, route), response.status, detail);
    }
    if (typeof body !== 'object' || body === null) throw new ShopperApiError('network', response.status, 'answer has no JSON object');
    return { status: response.status, body: body as { data?: unknown; meta?: Record<string, unknown> } };
  }

  return {
    async program() {
      const { body } = await call('program', 'program');
      return flatten(body.data as Resource<Program>);
    },
    async member() {
      const { body } = await call('member', 'member');
      const meta = body.meta ?? {};
      return {
        loggedIn: meta.logged_in === true,
        member: body.data ? flatten(body.data as Resource<Member>) : null,
      };
    },
    async join() {
      const { status, body } = await call('member', 'member', { method: 'POST', body: {} });
      return { created: status === 201, member: flatten(body.data as Resource<Member>) };
    },
    async activity(page, size = 10) {
      const { body } = await call('member/activity', `member/activity?page%5Bnumber%5D=${page}&page%5Bsize%5D=${size}`);
      const entries = ((body.data as Resource<ActivityEntry>[] | undefined) ?? []).map(flatten);
      const totalPages = body.meta?.total_pages;
      const hasMore = typeof totalPages === 'number' ? page < totalPages : entries.length === size;
      return { entries, page, hasMore };
    },
    async rewards(page = 1, size = 20) {
      const { body } = await call('member/rewards', `member/rewards?page%5Bnumber%5D=${page}&page%5Bsize%5D=${size}`);
      const codes = ((body.data as Resource<OwnedReward>[] | undefined) ?? []).map(flatten);
      const totalPages = body.meta?.total_pages;
      return { codes, hasMore: typeof totalPages === 'number' ? page < totalPages : codes.length === size };
    },
    async redeem(rewardId, { idempotencyKey, points }) {
      const { body } = await call('redeem', `rewards/${encodeURIComponent(rewardId)}/redeem`, {
        method: 'POST',
        body: points === undefined ? {} : { points },
        headers: { 'Idempotency-Key': idempotencyKey },
      });
      return flatten(body.data as Resource<Redemption>);
    },
  };
}

function flatten<T extends { id: string }>(resource: Resource<T>): T {
  return { ...resource.attributes, id: resource.id } as T;
}

function errorDetail(body: unknown): string | undefined {
  const errors = (body as { errors?: { detail?: unknown }[] } | null)?.errors;
  const detail = Array.isArray(errors) ? errors[0]?.detail : undefined;
  return typeof detail === 'string' ? detail : undefined;
}

export function errorKind(status: number, route: string): ShopperErrorKind {
  if (status === 401) return 'sign_in';
  if (status === 403) return 'not_allowed';
  // A redemption's 404 is a reward gone or a customer not (or no longer) a member: the page reloads the member to tell.
  if (status === 404) return route === 'member/activity' || route === 'member/rewards' ? 'not_member' : 'not_found';
  if (status === 422) return 'insufficient';
  if (status === 429) return 'throttled';
  if (status >= 500) return 'unavailable';
  return 'invalid';
}
