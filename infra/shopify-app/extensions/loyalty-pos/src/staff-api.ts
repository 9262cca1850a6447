// The POS extension's one way to the service: the staff routes (/admin/api/...) with the session token POS mints
// for the staff member (`shopify.session.getSessionToken()`: the admin ID token's format, docs/pos.md) as a bearer
// token, on the service's own URL (a cross-origin call from POS's origin, preflighted). Pure of the POS host:
// the token and fetch come in as functions, so the same code runs in POS, in the twin's POS page and in jest.

import type {
  Customer,
  PointsAdjustment,
  Purchase,
  ShopperProgram,
  StaffEarningHistoryEntry,
  StaffRewardHistoryEntry,
} from '../../../../../shared/openapi/client-types';

// The answers are read as the service's own shapes (shared/openapi/client-types.ts, types only) into the counter's
// own words below. A resource's attributes are read as possibly absent: an answer that is not the service's (a
// proxy's page) gives no member rather than a broken one.
type Answer<A> = { id?: string; attributes?: Partial<A> };

/** A member as `GET /admin/api/v1/customers/{id}` answers it, read down to what the counter shows. */
export interface Member {
  id: string;
  name: string;
  email: string | null;
  currentPoints: number;
  tier: { id: string; name: string } | null;
  excluded: boolean;
}

/** A reward of the program as `GET /admin/api/program` lists it. */
export interface Reward {
  id: string;
  name: string;
  discountType: string;
  discountAmount: number;
  pointsCost: number;
  /** A flexible reward's range and step (the points one unit of discount costs). */
  flexible: { min: number; max: number; step: number } | null;
  tierId: string | null;
}

export interface Program {
  mode: 'points' | 'store_credit';
  currency: string;
  rewards: Reward[];
}

/** A redemption: its code (null for store credit, credited to the customer's account instead). */
export interface Redemption {
  id: string;
  rewardName: string;
  discountType: string;
  pointsSpent: number;
  code: string | null;
}

/** An earning history line, with the order's channel staff read (`order_source_name`). */
export interface HistoryLine {
  id: string;
  action: string;
  points: number;
  orderNumber: string | null;
  source: string | null;
  createdAt: string;
}

/** Why a call failed, in words staff can act on: the service's own detail when it gave one. */
export class StaffApiError extends Error {
  constructor(
    readonly kind: 'refused' | 'unavailable' | 'no-permission',
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

type Response = { status: number; ok: boolean; json(): Promise<unknown> };
type Fetch = (url: string, init: { method: string; headers: Record<string, string>; body?: string }) => Promise<Response>;

export interface StaffApi {
  /** The member, or null for a customer who is not one. */
  member(customerId: string): Promise<Member | null>;
  /** Members found by e-mail (text with an @), by customer id (digits) or by name. */
  search(text: string): Promise<Member[]>;
  program(): Promise<Program>;
  redeem(rewardId: string, customerId: string, points?: number): Promise<Redemption>;
  /** The member's active codes: each redemption not used, refunded or expired. */
  activeRedemptions(customerId: string): Promise<Redemption[]>;
  /** Undoes a redemption: its code deleted and its points given back. */
  undo(customerId: string, redemptionId: string): Promise<void>;
  /** Adds (positive) or takes (negative) points; the reason is kept as the adjustment's note. */
  adjust(customerId: string, adjustment: number, reason: string): Promise<number>;
  history(customerId: string): Promise<HistoryLine[]>;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

type CustomerFields = Pick<
  Customer,
  'platform_customer_id' | 'first_name' | 'last_name' | 'email' | 'current_points' | 'vip_tier' | 'loyalty_status'
>;

function memberOf(resource: Answer<CustomerFields> | undefined): Member | null {
  const attributes = resource?.attributes;
  if (!attributes || typeof attributes.current_points !== 'number') return null;
  const tier = attributes.vip_tier;
  const name = [text(attributes.first_name), text(attributes.last_name)].filter(Boolean).join(' ');
  const id = String(resource.id ?? attributes.platform_customer_id);
  return {
    id,
    name: name || text(attributes.email) || `#${id}`,
    email: text(attributes.email),
    currentPoints: attributes.current_points,
    tier: tier && typeof tier.name === 'string' ? { id: String(tier.id), name: tier.name } : null,
    excluded: attributes.loyalty_status === 'excluded',
  };
}

/** A redemption as the purchase and the reward history answer it (`Purchase`, `StaffRewardHistoryEntry`). */
type RedemptionFields = Pick<Purchase & StaffRewardHistoryEntry, 'reward_name' | 'reward_discount_type' | 'points_spent' | 'discount_code'>;

function redemptionOf(resource: Answer<RedemptionFields>): Redemption {
  const attributes = resource.attributes ?? {};
  return {
    id: String(resource.id),
    rewardName: String(attributes.reward_name ?? ''),
    discountType: String(attributes.reward_discount_type ?? ''),
    pointsSpent: Number(attributes.points_spent ?? 0),
    code: text(attributes.discount_code),
  };
}

export function createStaffApi(options: { serviceUrl: string; token: () => Promise<string | undefined | null>; fetch: Fetch }): StaffApi {
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const token = await options.token();
    // POS gives no token to a login without the app's permission (docs/pos.md).
    if (!token) throw new StaffApiError('no-permission', 'no session token');
    let response: Response;
    try {
      response = await options.fetch(`${options.serviceUrl}/admin/api${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch {
      throw new StaffApiError('unavailable', 'the service could not be reached');
    }
    const json = (await response.json().catch(() => null)) as { data?: unknown; errors?: Array<{ detail?: unknown }> } | null;
    if (response.ok) return json ?? {};
    const detail = text(json?.errors?.[0]?.detail);
    if (response.status >= 500 || detail === null)
      throw new StaffApiError('unavailable', detail ?? `status ${response.status}`, response.status);
    throw new StaffApiError('refused', detail, response.status);
  };
  const id = encodeURIComponent;

  return {
    async member(customerId) {
      try {
        const answer = (await call('GET', `/v1/customers/${id(customerId)}`)) as { data?: Answer<CustomerFields> };
        return memberOf(answer.data);
      } catch (error) {
        if (error instanceof StaffApiError && error.status === 404) return null;
        throw error;
      }
    },
    async search(query) {
      const wanted = query.trim();
      if (wanted === '') return [];
      if (/^\d{1,20}$/.test(wanted)) {
        const found = await this.member(wanted);
        return found ? [found] : [];
      }
      const path = wanted.includes('@')
        ? `/v1/customers?filter[email]=${id(wanted)}&page[size]=10`
        : `/members?filter[name]=${id(wanted)}&page[size]=10`;
      const answer = (await call('GET', path)) as { data?: Array<Answer<CustomerFields>> };
      return (answer.data ?? []).map(memberOf).filter((member): member is Member => member !== null);
    },
    async program() {
      const answer = (await call('GET', '/program')) as { data?: Answer<Pick<ShopperProgram, 'loyalty_mode' | 'currency' | 'rewards'>> };
      const attributes = answer.data?.attributes ?? {};
      const rewards: Array<Partial<ShopperProgram['rewards'][number]>> = attributes.rewards ?? [];
      return {
        mode: attributes.loyalty_mode === 'store_credit' ? 'store_credit' : 'points',
        currency: String(attributes.currency ?? 'USD'),
        rewards: rewards.map((reward) => {
          const flexible = reward.flexible;
          return {
            id: String(reward.id),
            name: String(reward.name),
            discountType: String(reward.discount_type),
            discountAmount: Number(reward.discount_amount ?? 0),
            pointsCost: Number(reward.points_cost ?? 0),
            flexible: flexible ? { min: flexible.min_points, max: flexible.max_points, step: flexible.points_per_unit } : null,
            tierId: text(reward.vip_tier_id),
          };
        }),
      };
    },
    async redeem(rewardId, customerId, points) {
      const body = { customer_identifier: customerId, ...(points === undefined ? {} : { points }) };
      // One key per redemption asked: a retry of the same request (a dropped answer) is replayed, never spent twice.
      const key = `pos-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
      const answer = (await call('POST', `/v1/rewards/${id(rewardId)}/purchase`, body, { 'Idempotency-Key': key })) as {
        data: Answer<RedemptionFields>;
      };
      return redemptionOf(answer.data);
    },
    async activeRedemptions(customerId) {
      const answer = (await call('GET', `/v1/customers/${id(customerId)}/reward-history?filter[status]=active&page[size]=50`)) as {
        data?: Array<Answer<RedemptionFields & Pick<StaffRewardHistoryEntry, 'is_refunded'>>>;
      };
      return (answer.data ?? []).filter((entry) => entry.attributes?.is_refunded !== true).map(redemptionOf);
    },
    async undo(customerId, redemptionId) {
      await call('POST', `/v1/customers/${id(customerId)}/reward-history/${id(redemptionId)}/refund`, {});
    },
    async adjust(customerId, adjustment, reason) {
      const answer = (await call('POST', `/v1/customers/${id(customerId)}/points`, { adjustment, note: reason })) as {
        data?: Answer<Pick<PointsAdjustment, 'current_points'>>;
      };
      return Number(answer.data?.attributes?.current_points ?? 0);
    },
    async history(customerId) {
      const answer = (await call('GET', `/v1/customers/${id(customerId)}/earning-history?page[size]=5`)) as {
        data?: Array<Answer<Pick<StaffEarningHistoryEntry, 'action' | 'points' | 'order_number' | 'order_source_name' | 'created_at'>>>;
      };
      return (answer.data ?? []).map((entry) => ({
        id: String(entry.id),
        action: String(entry.attributes?.action ?? ''),
        points: Number(entry.attributes?.points ?? 0),
        orderNumber: text(entry.attributes?.order_number),
        source: text(entry.attributes?.order_source_name),
        createdAt: String(entry.attributes?.created_at ?? ''),
      }));
    },
  };
}
