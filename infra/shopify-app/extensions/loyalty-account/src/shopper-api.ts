// The extensions' one way to the service: the /shopper routes of docs/storefront.md, called with an
// absolute URL and the customer's session token as a bearer token. Pure of the extension host (the
// token and fetch come in as functions), so the same code runs in Shopify's worker, in the test
// harness's page and in jest against the twin.

import type {
  ActivityEntry as ActivityAnswer,
  ActivityListMeta,
  MemberReward,
  MemberRewardListMeta,
  Redemption as RedemptionAnswer,
  ShopperMember,
  ShopperProgram,
} from '../../../../../shared/openapi/client-types';

// The answers' shapes are the service's own (shared/openapi/client-types.ts, types only), read down to what the
// page shows; each resource comes flattened, its `id` beside its attributes.

/** A rule of the program as `GET /shopper/program` lists it: `points` is what this shopper gets now (tier and campaign included), a per-spend rule's for each whole `spend_unit`. */
export type EarningRule = ShopperProgram['earning_rules'][number];

/** The campaign running now, which every figure of the program includes. */
export type ProgramCampaign = NonNullable<ShopperProgram['campaign']>;

/** A reward of the program; `flexible.points_per_unit` is the points one unit of the discount costs (the chooser's step). */
export type ProgramReward = Pick<
  ShopperProgram['rewards'][number],
  | 'id'
  | 'name'
  | 'description'
  | 'discount_type'
  | 'discount_amount'
  | 'minimum_spend'
  | 'redemption_mode'
  | 'points_cost'
  | 'flexible'
  | 'vip_tier_id'
  | 'expiry_days'
>;

export type ProgramTier = ShopperProgram['vip_tiers'][number];

export type Program = Pick<ShopperProgram, 'loyalty_mode' | 'currency' | 'earning_rules' | 'campaign' | 'vip_tiers'> & {
  id: string;
  rewards: ProgramReward[];
};

export type Member = ShopperMember & { id: string };

/** `GET /shopper/member`: who the token names, and the member when there is one. */
export interface MemberAnswer {
  loggedIn: boolean;
  member: Member | null;
}

export type ActivityKind = ActivityAnswer['kind'];

/** A line of the activity; `discount_code` is a redemption's code (null on other lines). */
export type ActivityEntry = ActivityAnswer & { id: string };

/** A page of the activity and the answer's own page figures: a later page exists while `page` is below `total_pages`. */
export type ActivityPage = Pick<ActivityListMeta, 'page' | 'total_pages'> & {
  entries: ActivityEntry[];
  hasMore: boolean;
};

/** A redemption; `discount_code` is null for store credit, which is credited to the customer's account. */
export type Redemption = RedemptionAnswer & { id: string };

/** A code the member bought and can still use (GET /shopper/member/rewards). */
export type OwnedReward = MemberReward & { id: string };

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
      const { status, body } = await call('member/activity', `member/activity?page%5Bnumber%5D=${page}&page%5Bsize%5D=${size}`);
      const entries = ((body.data as Resource<ActivityEntry>[] | undefined) ?? []).map(flatten);
      const meta = pageFigures<ActivityListMeta>(body.meta, status);
      return { entries, page: meta.page, total_pages: meta.total_pages, hasMore: meta.page < meta.total_pages };
    },
    async rewards(page = 1, size = 20) {
      const { status, body } = await call('member/rewards', `member/rewards?page%5Bnumber%5D=${page}&page%5Bsize%5D=${size}`);
      const codes = ((body.data as Resource<OwnedReward>[] | undefined) ?? []).map(flatten);
      const meta = pageFigures<MemberRewardListMeta>(body.meta, status);
      return { codes, hasMore: meta.page < meta.total_pages };
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

/** A list answer's page figures (`meta.page`, `meta.total_pages`): the service always sends them; an answer without is not the service's. */
function pageFigures<M extends Pick<ActivityListMeta, 'page' | 'total_pages'>>(
  meta: Record<string, unknown> | undefined,
  status: number,
): M {
  if (typeof meta?.page !== 'number' || typeof meta.total_pages !== 'number')
    throw new ShopperApiError('network', status, 'answer has no page figures (meta.page, meta.total_pages)');
  return meta as M;
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
