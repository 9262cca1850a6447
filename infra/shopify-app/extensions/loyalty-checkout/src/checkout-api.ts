// The checkout extensions' one way to the service: the /shopper routes they use (docs/checkout.md), called
// with an absolute URL and the session token Shopify mints for checkout as a bearer token. Pure of the
// extension host (the token and fetch come in as functions), so the same code runs in Shopify's worker, in the
// twin's checkout page and in jest against the twin.

import type {
  Estimate as EstimateAnswer,
  MemberReward,
  Redemption as RedemptionAnswer,
  ShopperMember,
  ShopperProgram,
} from '../../../../../shared/openapi/client-types';

// The answers' shapes are the service's own (shared/openapi/client-types.ts, types only), read down to what the
// blocks use; each resource comes flattened, its `id` beside its attributes.

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
>;

export type Program = Pick<ShopperProgram, 'currency' | 'earning_rules' | 'vip_tiers'> & { id: string; rewards: ProgramReward[] };

export type Member = Pick<
  ShopperMember,
  | 'first_name'
  | 'current_points'
  | 'lifetime_points'
  | 'pending_points'
  | 'loyalty_status'
  | 'vip_tier'
  | 'next_tier'
  | 'redeemable_reward_ids'
> & { id: string };

export interface MemberAnswer {
  loggedIn: boolean;
  member: Member | null;
}

/** A redemption; `discount_code` is null for store credit, which is credited to the customer's account (checkout does not offer it). */
export type Redemption = RedemptionAnswer & { id: string };

/** A code the member bought and can still use (GET /shopper/member/rewards): `id` is its redemption's. */
export type OwnedCode = Pick<MemberReward, 'reward_name' | 'discount_code' | 'points_spent'> & { id: string };

/** A cart line as POST /shopper/estimate takes it (amounts as decimal strings of the shop's currency). */
export interface EstimateLine {
  variant_id: string;
  quantity: number;
  price: string;
  gift_card: boolean;
}

export interface EstimateCart {
  lines: EstimateLine[];
  discount: string;
  currency: string;
}

/** What the cart would earn (POST /shopper/estimate). */
export type Estimate = EstimateAnswer;

/** What went wrong, as the block tells the shopper (the service's detail is kept for logs and tests). */
export type ShopperErrorKind =
  | 'sign_in' // 401
  | 'not_found' // 404: a reward or a redemption gone, or not (or no longer) a member
  | 'not_allowed' // 403
  | 'insufficient' // 422: not enough points, or a code already used or refunded
  | 'throttled' // 429
  | 'unavailable' // 5XX: nothing was done
  | 'invalid' // any other 4XX
  | 'network'; // no answer, or not the service's JSON

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

export interface CheckoutApiOptions {
  /** The service's API URL, without `/shopper` (src/service-url.ts). */
  serviceUrl: string;
  /** A fresh session token for every request, as Shopify asks (`shopify.sessionToken.get`). */
  sessionToken: () => Promise<string>;
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
}

export interface CheckoutApi {
  program(): Promise<Program>;
  member(): Promise<MemberAnswer>;
  join(): Promise<{ created: boolean; member: Member }>;
  redeem(rewardId: string, options: { idempotencyKey: string; points?: number }): Promise<Redemption>;
  /** Undoes an unused redemption: its code deleted, the points back (POST /shopper/member/rewards/{id}/refund). */
  refund(redemptionId: string, options: { idempotencyKey: string }): Promise<void>;
  estimate(cart: EstimateCart): Promise<Estimate>;
  /** The member's codes still to use, newest first (the first 50): the checkout's applied codes are matched to them. */
  codes(): Promise<OwnedCode[]>;
}

interface Resource<T> {
  id: string;
  attributes: Omit<T, 'id'>;
}

export function createCheckoutApi(options: CheckoutApiOptions): CheckoutApi {
  const base = `${options.serviceUrl.replace(/\/+$/, '')}/shopper`;
  const send = options.fetch ?? ((url: string, init: RequestInit) => fetch(url, init));

  async function call(
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
    if (!response.ok)
      throw new ShopperApiError(errorKind(response.status), response.status, errorDetail(body) ?? `HTTP ${response.status}`);
    if (typeof body !== 'object' || body === null) throw new ShopperApiError('network', response.status, 'answer has no JSON object');
    return { status: response.status, body: body as { data?: unknown; meta?: Record<string, unknown> } };
  }

  return {
    async program() {
      return flatten((await call('program')).body.data as Resource<Program>);
    },
    async member() {
      const { body } = await call('member');
      return { loggedIn: body.meta?.logged_in === true, member: body.data ? flatten(body.data as Resource<Member>) : null };
    },
    async join() {
      const { status, body } = await call('member', { method: 'POST', body: {} });
      return { created: status === 201, member: flatten(body.data as Resource<Member>) };
    },
    async redeem(rewardId, { idempotencyKey, points }) {
      const { body } = await call(`rewards/${encodeURIComponent(rewardId)}/redeem`, {
        method: 'POST',
        body: points === undefined ? {} : { points },
        headers: { 'Idempotency-Key': idempotencyKey },
      });
      return flatten(body.data as Resource<Redemption>);
    },
    async refund(redemptionId, { idempotencyKey }) {
      await call(`member/rewards/${encodeURIComponent(redemptionId)}/refund`, {
        method: 'POST',
        body: {},
        headers: { 'Idempotency-Key': idempotencyKey },
      });
    },
    async codes() {
      const { body } = await call('member/rewards?page%5Bnumber%5D=1&page%5Bsize%5D=50');
      return ((body.data as Resource<OwnedCode>[] | undefined) ?? []).map(flatten);
    },
    async estimate(cart) {
      const { body } = await call('estimate', { method: 'POST', body: cart });
      return (body.data as { attributes: Estimate }).attributes;
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

export function errorKind(status: number): ShopperErrorKind {
  if (status === 401) return 'sign_in';
  if (status === 403) return 'not_allowed';
  if (status === 404) return 'not_found';
  if (status === 422) return 'insufficient';
  if (status === 429) return 'throttled';
  if (status >= 500) return 'unavailable';
  return 'invalid';
}
