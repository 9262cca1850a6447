// The requests the bench loads, on the demo shop (config/demo.json), each with the fewest DynamoDB
// calls the design allows for it on a warm function (shop configuration cached), command by command.
// Keyed by the route manifest's names, so a route added without an entry here fails to compile.
// test/e2e/dynamodb-calls.test.ts holds every endpoint to these figures; the bench prints them next
// to what it counts under load.
import type { RouteName, ShopperRouteName } from '../shared/runtime/entry-points';
import { LISTED_REFERRER, listedReferralsRow, type PreparedRow, REFUND_FALLBACK_PATH, referralRow, refundRow } from './prepared-rows';

export type DynamoDbCalls = Partial<
  Record<'GetItemCommand' | 'QueryCommand' | 'BatchGetItemCommand' | 'TransactWriteItemsCommand' | 'UpdateItemCommand', number>
>;

export interface BenchEndpoint {
  name: string;
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  /** The API key sent as the Authorization header; a shopper row sends a session token instead. */
  key?: 'demo_read_key' | 'demo_full_key';
  /** A shopper route: called with a customer session token of the demo shop's app for this customer (null: a guest). */
  shopper?: { customerId: string | null };
  body?: unknown;
  minimumCalls: DynamoDbCalls;
  /** Every connection writes this one customer: a row of the one-customer section (`--only one-customer`). */
  oneCustomer?: true;
  /** The answer a loaded request gets when it is not 200: a refusal the row measures by design (counted as no error). */
  status?: number;
  /**
   * Data prepared through the API before the row loads (bench/prepared-rows.ts), and each request's own path
   * and body from it. Such a row sends a fixed number of requests rather than load for a time, so that what
   * was prepared is exactly enough.
   */
  prepared?: PreparedRow;
}

/** Requests every connection sends in turn, loaded and counted as one row (minimum: their average). */
export interface BenchMix {
  name: string;
  requests: readonly BenchEndpoint[];
}

/** A route the bench does not load, and why; test/e2e/dynamodb-calls.test.ts still counts its calls. */
export interface NotLoaded {
  notLoaded: string;
}

/** A checkout's cart as POST /shopper/estimate takes it: two lines of products and a gift card, a discount. */
const ESTIMATE_CART = {
  lines: [
    { variant_id: '41002', product_id: '9001', quantity: 2, price: '89.00', gift_card: false },
    { variant_id: '41007', product_id: '9004', quantity: 1, price: '25.00', gift_card: true },
  ],
  discount: '10.00',
  currency: 'USD',
};

/**
 * Every route: the requests loaded for it, in the order the bench runs and prints them, or why none.
 * A warm key costs nothing: the gateway caches the authorizer's answer per key and every key write
 * flushes it (a cold key adds one GetItem); a customer is one GetItem by platform id or one Query of
 * the e-mail index.
 */
export const BENCH_ROUTES = {
  getCustomer: [
    { name: 'GET /customers/{id}', method: 'GET', path: '/v1/customers/1001', key: 'demo_read_key', minimumCalls: { GetItemCommand: 1 } },
    {
      name: 'GET /customers/{email}',
      method: 'GET',
      path: '/v1/customers/ada.lovelace@example.com',
      key: 'demo_read_key',
      minimumCalls: { QueryCommand: 1 },
    },
  ],
  // The storefront's member panel, beside GET customer: the session token verified (the shop's domain and
  // app secret cached per warm function), then at once the member and one Query of the ledger's newest end
  // on its local index (the pending points and the open batches, for the points expiring first).
  shopperMember: [
    {
      name: 'GET /shopper/member',
      method: 'GET',
      path: '/shopper/member',
      shopper: { customerId: '1001' },
      minimumCalls: { GetItemCommand: 1, QueryCommand: 1 },
    },
  ],
  // A guest's program: the cached configuration only. A member's adds the member (their tier prices the rules).
  shopperProgram: [
    { name: 'GET /shopper/program (guest)', method: 'GET', path: '/shopper/program', shopper: { customerId: null }, minimumCalls: {} },
    {
      name: 'GET /shopper/program (member)',
      method: 'GET',
      path: '/shopper/program',
      shopper: { customerId: '1001' },
      minimumCalls: { GetItemCommand: 1 },
    },
  ],
  // The member and each history's first page and its count, all at once (the merge needs both totals).
  shopperActivity: [
    {
      name: 'GET /shopper/member/activity',
      method: 'GET',
      path: '/shopper/member/activity',
      shopper: { customerId: '1001' },
      minimumCalls: { GetItemCommand: 1, QueryCommand: 4 },
    },
  ],
  // The member and the unused codes' first page and its count, all at once.
  shopperRewards: [
    {
      name: 'GET /shopper/member/rewards',
      method: 'GET',
      path: '/shopper/member/rewards',
      shopper: { customerId: '1001' },
      minimumCalls: { GetItemCommand: 1, QueryCommand: 2 },
    },
  ],
  // A checkout's estimate of its cart: the cached configuration for a guest; a member's adds the member (their
  // tier prices the order). Nothing is written.
  shopperEstimate: [
    {
      name: 'POST /shopper/estimate (guest)',
      method: 'POST',
      path: '/shopper/estimate',
      shopper: { customerId: null },
      body: ESTIMATE_CART,
      minimumCalls: {},
    },
    {
      name: 'POST /shopper/estimate (member)',
      method: 'POST',
      path: '/shopper/estimate',
      shopper: { customerId: '1001' },
      body: ESTIMATE_CART,
      minimumCalls: { GetItemCommand: 1 },
    },
  ],
  // A member joining again: the existing-member check of POST /v1/customers, then the member's ledger read.
  shopperJoin: [
    {
      name: 'POST /shopper/member (already a member)',
      method: 'POST',
      path: '/shopper/member',
      shopper: { customerId: '1001' },
      // As the storefront and the account page send it: a JSON body, `{}` (a shopper write needs the JSON type).
      body: {},
      minimumCalls: { GetItemCommand: 1, QueryCommand: 1 },
    },
  ],
  getCustomerBirthday: [
    {
      name: 'GET /customers/{id}/birthday',
      method: 'GET',
      path: '/v1/customers/1001/birthday',
      key: 'demo_read_key',
      minimumCalls: { GetItemCommand: 1 },
    },
  ],
  // The shop's counters (totals), one Query per status partition, one BatchGetItem for the page.
  listCustomers: [
    {
      name: 'GET /customers (page 1)',
      method: 'GET',
      path: '/v1/customers',
      key: 'demo_read_key',
      minimumCalls: { GetItemCommand: 1, QueryCommand: 2, BatchGetItemCommand: 1 },
    },
  ],
  // Customer, the page from a local secondary index, its total from a COUNT query.
  listEarningHistory: [
    {
      name: 'GET /customers/{id}/earning-history',
      method: 'GET',
      path: '/v1/customers/1001/earning-history',
      key: 'demo_read_key',
      minimumCalls: { GetItemCommand: 1, QueryCommand: 2 },
    },
  ],
  listRewardHistory: [
    {
      name: 'GET /customers/{id}/reward-history',
      method: 'GET',
      path: '/v1/customers/1001/reward-history',
      key: 'demo_read_key',
      minimumCalls: { GetItemCommand: 1, QueryCommand: 2 },
    },
  ],
  listEarningRules: [
    {
      name: 'GET /earning-rules?customer',
      method: 'GET',
      path: '/v1/earning-rules?filter%5Bcustomer_identifier%5D=1001',
      key: 'demo_read_key',
      minimumCalls: { GetItemCommand: 1 },
    },
  ],
  listVipTiers: [{ name: 'GET /vip-tiers', method: 'GET', path: '/v1/vip-tiers', key: 'demo_read_key', minimumCalls: {} }],
  // Writes all hit one customer from every connection (docs/architecture.md#one-hot-customer).
  // PUT: the customer, then one UpdateItem of the profile's fields (a new date of birth or status is one
  // transaction instead: the birthday timer or the shop counters change with the profile).
  updateCustomer: [
    {
      name: 'PUT /customers/{id} (one customer)',
      method: 'PUT',
      path: '/v1/customers/1003',
      key: 'demo_full_key',
      body: { date_of_birth: '1990-05-17' },
      minimumCalls: { GetItemCommand: 1, UpdateItemCommand: 1 },
      oneCustomer: true,
    },
  ],
  // Points: the request joins the customer's queue (an UpdateItem that also reads the profile), then one
  // transaction commits the queue: profile and one audit entry per queued request.
  adjustPoints: [
    {
      name: 'POST .../points (one customer)',
      method: 'POST',
      path: '/v1/customers/1004/points',
      key: 'demo_full_key',
      body: { adjustment: 1 },
      minimumCalls: { UpdateItemCommand: 1, TransactWriteItemsCommand: 1 },
      oneCustomer: true,
    },
  ],
  // An action past its limit: the customer, then the award's transaction, refused by the counter's condition
  // (nothing written). Once per lifetime, so after the warm-up's first award every request is this refusal,
  // the path concurrent requests past a limit take; the award itself costs the same two calls
  // (test/e2e/dynamodb-calls.test.ts holds both).
  earnAction: [
    {
      name: 'POST .../actions (one customer, 422)',
      method: 'POST',
      path: '/v1/customers/1002/actions',
      key: 'demo_full_key',
      body: { action: 'follow_on_instagram' },
      minimumCalls: { GetItemCommand: 1, TransactWriteItemsCommand: 1 },
      oneCustomer: true,
      status: 422,
    },
  ],
  enrollCustomer: {
    notLoaded:
      'a customer enrols once: under load every later request answers 200 with the existing member after the reads of GET customer',
  },
  getCustomerAnniversary: { notLoaded: 'the same reads as GET .../birthday (the customer), which is loaded' },
  getEarningHistoryEntry: { notLoaded: 'one GetItem of the entry after the customer, the reads GET customer already loads' },
  getRewardHistoryEntry: { notLoaded: 'one GetItem of the entry after the customer, the reads GET customer already loads' },
  // An unused redemption per request, each bought for it before the row (the demo's members in turn): the customer and the entry at once,
  // the code deleted on the platform, one transaction (entry, profile, reward_refund entry).
  refundReward: [
    {
      name: 'POST .../reward-history/{id}/refund',
      method: 'POST',
      path: REFUND_FALLBACK_PATH,
      key: 'demo_full_key',
      // The update records the undo before the code is deleted (docs/program.md#undo-a-redemption).
      minimumCalls: { GetItemCommand: 2, UpdateItemCommand: 1, TransactWriteItemsCommand: 1 },
      prepared: refundRow(),
    },
  ],
  // The customer, then one page Query and one count Query of the member's referrals at once.
  listReferrals: [
    {
      name: 'GET /customers/{id}/referrals',
      method: 'GET',
      path: `/v1/customers/${LISTED_REFERRER}/referrals`,
      key: 'demo_read_key',
      minimumCalls: { GetItemCommand: 1, QueryCommand: 2 },
      prepared: listedReferralsRow(),
    },
  ],
  // A new friend's mailbox per request: the code's owner, then the referrer and the e-mail index at once,
  // one transaction (mailbox guard, day count, referral, code guard), the code on the platform, and the
  // activation's transaction (the referral and its referral.created event).
  createReferral: [
    {
      name: 'POST /referrals',
      method: 'POST',
      path: '/v1/referrals',
      key: 'demo_full_key',
      body: { referral_code: 'NONE', email: 'none@example.com' },
      minimumCalls: { GetItemCommand: 2, QueryCommand: 1, TransactWriteItemsCommand: 2 },
      status: 201,
      prepared: referralRow(),
    },
  ],
  purchaseReward: {
    notLoaded: 'each purchase spends points and creates a code on the platform: a timed run would empty the balance and then load refusals',
  },
  shopperRedeem: {
    notLoaded:
      'the /v1 purchase itself (the same saga and the same calls, held by test/e2e/dynamodb-calls.test.ts), which is not loaded either',
  },
  shopperRefund: {
    notLoaded: 'the /v1 refund itself (the same function and the same calls), loaded above as POST .../reward-history/{id}/refund',
  },
} as const satisfies Record<RouteName | ShopperRouteName, readonly BenchEndpoint[] | NotLoaded>;

/** The loaded requests in order; the first is GET customer by id. */
export const BENCH_ENDPOINTS: readonly BenchEndpoint[] = Object.values(BENCH_ROUTES).flatMap((entry): readonly BenchEndpoint[] =>
  'notLoaded' in entry ? [] : entry,
);

/** The rows whose connections all write one customer. */
export const ONE_CUSTOMER_ENDPOINTS: readonly BenchEndpoint[] = BENCH_ENDPOINTS.filter((endpoint) => endpoint.oneCustomer);

/**
 * Updates and adjustments of one customer at once: every connection alternates a PUT and a points
 * adjustment of customer 1008, so half the writers change the profile's fields while the other half
 * change its balance.
 */
export const ONE_CUSTOMER_MIX: BenchMix = {
  name: 'PUT + points (one customer)',
  requests: [
    { ...BENCH_ROUTES.updateCustomer[0], path: '/v1/customers/1008', body: { anniversary_date: '2019-04-02' } },
    { ...BENCH_ROUTES.adjustPoints[0], path: '/v1/customers/1008/points' },
  ],
};
