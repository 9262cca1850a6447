// The OpenAPI 3.1 document, generated from the route manifest and the zod schemas of requests and
// responses. A manifest route without documentation here fails to compile, so the two cannot drift.
import { z } from 'zod';
import {
  ADMIN_PAGES,
  type AdminApiRouteName,
  isAdminApiPage,
  type PageRoute,
  ROUTES,
  SHOPPER_BUDGET,
  SHOPPER_CORS_HEADERS,
  SHOPPER_ROUTES,
  shopperRouteClass,
  STAFF_API_PREFIX,
  STAFF_CORS_HEADERS,
  type ShopperRoute,
  type ShopperRouteName,
  THROTTLE_LIMITS,
  type Route,
  type RouteName,
} from '../runtime/entry-points';
import { ACTIVITY_PAGE, ESTIMATE_MAX_LINES, estimateBodySchema, redeemBodySchema } from '../shopper/shopper-requests';
import { MAX_RANGE_DAYS } from '../domain/dates';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../http/query';
import { earnActionBodySchema } from '../actions/action-requests';
import { enrollBodySchema, updateBodySchema } from '../customers/customer-requests';
import { adjustPointsBodySchema } from '../points/points-requests';
import { purchaseBodySchema } from '../purchases/purchase-requests';
import { createReferralBodySchema } from '../referrals/referral-requests';
import { RESPONSE_SCHEMAS, type ResponseSchemaName } from './response-schemas';

interface QueryParameter {
  name: string;
  description: string;
  schema: Record<string, unknown>;
}

const page: QueryParameter[] = [
  { name: 'page[number]', description: 'Page number, default 1', schema: { type: 'integer', minimum: 1 } },
  {
    name: 'page[size]',
    description: 'Page size, default 20, at most 100 (larger is served at 100)',
    schema: { type: 'integer', minimum: 1 },
  },
];
const sort = (fields: string[]): QueryParameter => ({
  name: 'sort',
  description: `One of ${fields.join(', ')}; prefix - for descending. Default -created_at`,
  schema: { type: 'string', enum: fields.flatMap((f) => [f, `-${f}`]) },
});
const filter = (name: string, description: string, schema: Record<string, unknown> = { type: 'string' }): QueryParameter => ({
  name: `filter[${name}]`,
  description,
  schema,
});
const excludeVip: QueryParameter = {
  name: 'exclude_vip',
  description: 'true: vip_tier is null and no tier lookup happens',
  schema: { type: 'string', enum: ['true', 'false'] },
};

/** Operation groups, in the order a reader meets them. */
const TAGS = {
  Customers: 'Loyalty members: enrolment from the commerce platform, lookup by platform id or e-mail, updates, birthday and anniversary.',
  Points: 'Manual points adjustments, each recorded as an audit entry in the earning history.',
  Actions:
    'Points for actions a customer took (following the store, a review, a newsletter), each by its earning rule and within its limit.',
  History: "A customer's earning history (points earned and adjustments) and reward history (purchased rewards and their discount codes).",
  Rewards:
    'Redeeming a reward for a customer: points are deducted and a discount code is created on the commerce platform; undoing an unused redemption deletes the code and gives the points back.',
  Referrals:
    "The referred friend's reward: a member's referral code gives a friend a single-use discount code, and the member's referrals with where each stands.",
  'Earning rules': 'How customers earn points, with the points a given customer would get.',
  'VIP tiers': "The shop's VIP tiers, their thresholds, multipliers and rewards.",
  Shopper:
    "The program as one shopper sees it, for the storefront (through Shopify's app proxy, `https://{shop}/apps/loyalty/...`) and customer account extensions (a customer session token): no API key; the shopper is the customer Shopify verified and no one else.",
  Staff:
    "The app in Shopify's admin, for the shop's staff (a Shopify admin ID token, no API key): the program's figures and the member list. " +
    'Besides these, `/admin/api/v1/...` mirrors every `/v1/...` operation of this document: the same path below the prefix, parameters, bodies, statuses and answers, authorized by the staff ID token with full scope. ' +
    "There the earning and reward history entries also say who made each (`actor`), an adjustment's entry its internal `note` (docs/admin.md#who-made-each-entry) and every earning entry its order's channel (`order_source_name`: Shopify's `source_name`, `web`, `pos`..., null for an entry of no order); every write records the staff user.",
} as const;

interface RouteDoc {
  tag: keyof typeof TAGS;
  summary: string;
  /** What the operation does and the behaviour a caller relies on; scope and rate limit are added from the manifest. */
  description: string;
  query?: QueryParameter[];
  body?: z.core.$ZodType;
  /** Status -> response schema name ('Error' for the envelope). */
  responses: Partial<Record<number, ResponseSchemaName>>;
  /** The 200 answer's schema under the staff mirror (`/admin/api/v1/...`), where it says more than the `/v1` one. */
  staffMirror?: ResponseSchemaName;
}

const WRITE_ERRORS = { 400: 'Error', 403: 'Error', 404: 'Error', 409: 'Error', 422: 'Error' } as const;
const ENTRY_CHECK =
  'The entry must belong to that customer in this shop; otherwise, or when the customer is unknown, the answer is a 404 naming the entry.';

/** One entry per manifest route: a route added without documentation fails to compile. */
export const ROUTE_DOCS: Record<RouteName, RouteDoc> = {
  listCustomers: {
    tag: 'Customers',
    summary: 'List customers',
    description:
      "The shop's loyalty customers, sorted and paginated by page number (`meta.total_pages` says when to stop). `filter[email]` matches part of the e-mail, ignoring case. " +
      'An unknown sort field or filter is a 400 naming the allowed ones; a `page[size]` above 100 is served at 100; a page beyond the last has an empty `data` and the real totals. ' +
      "`meta` adds the shop's `loyalty_mode` and `currency`.",
    query: [
      filter('email', 'Partial, case-insensitive e-mail match'),
      filter('loyalty_status', 'member or excluded', { type: 'string', enum: ['member', 'excluded'] }),
      sort(['created_at', 'points', 'lifetime_points', 'redeemed_points']),
      ...page,
    ],
    responses: { 200: 'CustomerList', 400: 'Error' },
  },
  enrollCustomer: {
    tag: 'Customers',
    summary: 'Enroll a customer',
    description:
      'Enrolls a commerce-platform customer in the loyalty program: name, e-mail and account creation date are fetched from the platform and the record starts with zero points. ' +
      'The answer is `201 Created` for a new member and `200 OK` with the existing record, unchanged, when the customer is already enrolled. ' +
      '`platform_customer_id` must be a numeric string. 404 when the platform has no such customer; 503 when the platform errs or cannot be reached.',
    body: enrollBodySchema,
    responses: { 201: 'Customer', 200: 'Customer', ...WRITE_ERRORS, 503: 'Error' },
  },
  getCustomer: {
    tag: 'Customers',
    summary: 'Retrieve a customer by platform id or e-mail',
    description:
      "One customer, by platform customer id (numeric) or e-mail address (case-insensitive). `vip_tier` is computed on every read from the customer's lifetime points, spend and orders against the shop's tiers; " +
      '`exclude_vip=true` skips that lookup and returns `vip_tier: null`. `store_credit` carries the balance in major units in store-credit shops and is `null` in points shops.',
    query: [excludeVip],
    responses: { 200: 'Customer', 400: 'Error', 404: 'Error' },
  },
  updateCustomer: {
    tag: 'Customers',
    summary: 'Update a customer',
    description:
      'Sets or clears `date_of_birth` and `anniversary_date` (`YYYY-MM-DD` or an ISO 8601 date-time with a zone, stored as the calendar date; `null` clears) and excludes or re-includes the customer with `is_excluded`. ' +
      'The body may be flat or in JSON:API form (`{ "data": { "attributes": { ... } } }`); other fields are ignored, and at least one updatable field must be present (400 `No updatable fields provided`). ' +
      'An excluded customer cannot have points adjusted or purchase rewards.',
    query: [excludeVip],
    body: updateBodySchema,
    responses: { 200: 'Customer', ...WRITE_ERRORS },
  },
  getCustomerBirthday: {
    tag: 'Customers',
    summary: "A customer's date of birth",
    description: "The customer's `date_of_birth` (`YYYY-MM-DD`), `null` when not set.",
    responses: { 200: 'CustomerBirthday', 404: 'Error' },
  },
  getCustomerAnniversary: {
    tag: 'Customers',
    summary: "A customer's anniversary date",
    description:
      "The customer's `anniversary_date` (`YYYY-MM-DD`): the creation date of the customer's platform account, taken at enrolment, unless an update changed it; `null` when not known.",
    responses: { 200: 'CustomerAnniversary', 404: 'Error' },
  },
  adjustPoints: {
    tag: 'Points',
    summary: 'Add or deduct points',
    description:
      'A positive `adjustment` adds points, a negative one deducts them; in store-credit shops amounts are minor currency units. The balance floors at 0 and the response reports what was applied. ' +
      'Additions raise lifetime points unless `update_lifetime_points` is false; the VIP tier is recalculated in the same write, and an audit entry (`action: manual_adjustment`) is added to the earning history. ' +
      'Simultaneous adjustments all apply, each exactly once. `send_email` (default true) travels with the `points.adjusted` event published for marketing integrations. ' +
      '403 for an excluded customer; 500 when the adjustment could not be applied, with nothing written.',
    body: adjustPointsBodySchema,
    responses: { 200: 'PointsAdjustment', ...WRITE_ERRORS },
  },
  earnAction: {
    tag: 'Actions',
    summary: 'Award the points of an action',
    description:
      "The customer took `action` (`follow_on_instagram`, or any action a rule of the shop names): the shop's active earning rule of that action awards its points as `GET /v1/earning-rules` shows them for this customer at this moment (tier and campaign multipliers), " +
      'as an approved earning-history entry with that `action` and `earning_rule_id`, answered `201 Created` in the form of `GET .../earning-history/{id}`. Balance, lifetime points and VIP tier move in the same write. ' +
      'A rule is earned at most as often as its limit says (its configuration; by default once per lifetime; or N times per UTC day, ISO week from Monday, month or year): past it, 422 Action Limit Reached naming the limit, with nothing written, however many requests race. ' +
      '422 Invalid Action for an unknown or inactive action and for `purchase`, `signup`, `birthday` and `referral`, which the earning engine awards by itself; 403 for an excluded customer; 404 for an unknown one. ' +
      'A retry with the same `Idempotency-Key` answers the first response and awards nothing more.',
    body: earnActionBodySchema,
    responses: { 201: 'EarningHistoryEntry', ...WRITE_ERRORS },
  },
  listEarningHistory: {
    tag: 'History',
    summary: "A customer's earning history",
    description:
      "Points a customer earned and manual adjustments, newest first by default. This list's `meta` has the pagination fields only.",
    query: [
      filter('status', 'pending, approved or rejected', { type: 'string', enum: ['pending', 'approved', 'rejected'] }),
      sort(['created_at', 'points', 'points_given_at']),
      ...page,
    ],
    responses: { 200: 'EarningHistoryList', 400: 'Error', 404: 'Error' },
    staffMirror: 'StaffEarningHistoryList',
  },
  getEarningHistoryEntry: {
    tag: 'History',
    summary: 'One earning history entry',
    description: `One entry of a customer's earning history, with \`meta\` carrying \`loyalty_mode\` and \`currency\`. ${ENTRY_CHECK}`,
    responses: { 200: 'EarningHistoryEntry', 404: 'Error' },
  },
  listRewardHistory: {
    tag: 'History',
    summary: "A customer's reward history",
    description:
      'Rewards a customer purchased, with their discount codes, newest first by default. Purchases still being settled, or refunded after the discount code could not be created, are not shown. ' +
      "`meta` adds the shop's `loyalty_mode` and `currency`.",
    query: [
      filter('status', 'active, used or expired', { type: 'string', enum: ['active', 'used', 'expired'] }),
      sort(['created_at', 'points_spent']),
      ...page,
    ],
    responses: { 200: 'RewardHistoryList', 400: 'Error', 404: 'Error' },
    staffMirror: 'StaffRewardHistoryList',
  },
  getRewardHistoryEntry: {
    tag: 'History',
    summary: 'One reward history entry',
    description: `One purchased reward of a customer, with \`meta\` carrying \`loyalty_mode\` and \`currency\`. ${ENTRY_CHECK}`,
    responses: { 200: 'RewardHistoryEntry', 404: 'Error' },
  },
  refundReward: {
    tag: 'Rewards',
    summary: 'Undo a redemption (refund an unused reward)',
    description:
      'Refunds an `active` reward history entry whose discount code was not used: the code is deleted on the commerce platform first (if the platform errs or cannot be reached, nothing changes and the answer is 503), ' +
      'then, in one write, the entry gets `is_refunded: true` (its `status` stays), the customer gets `points_spent` back (`current_points` up, `redeemed_points` down; lifetime points unchanged) ' +
      'and the earning history an approved entry with `action: reward_refund` and those points (a batch of its own, with its own expiry, in batch expiry mode). A `reward.refunded` event is published. ' +
      'No body. The answer is the entry as GET of the entry serialises it, with `meta` carrying `loyalty_mode` and `currency`. ' +
      '404 for an unknown customer or entry; 403 for an excluded customer; 422 with a detail saying why for an entry whose code was used (Reward Used), that expired (Reward Expired) or that was refunded already (Reward Already Refunded). ' +
      'An order that uses the code and the refund never both take effect: whichever is written first wins. A repeat with the same `Idempotency-Key` replays the first answer. ' +
      "A `store_credit` entry (status `used` from the start, refundable while not refunded and not past `expires_at`) has the same amount debited from the customer's Shopify store credit account first; " +
      'when the account no longer holds it, 422 Store Credit Spent (the customer has spent it) and nothing changes.',
    responses: { 200: 'RewardHistoryEntry', ...WRITE_ERRORS, 503: 'Error' },
  },
  purchaseReward: {
    tag: 'Rewards',
    summary: 'Redeem a reward for a customer',
    description:
      "Deducts the reward's `points_cost` (for a flexible reward, the chosen `points`, also accepted as `points_to_redeem`) and creates a single-use discount code for that customer on the commerce platform. " +
      'Checks, in this order: the customer exists and is not excluded (404, 403); the reward exists and is active (404); it is not an entry reward (400); a VIP-restricted reward needs the customer on that tier (403); ' +
      'enough points (422 Insufficient Points); a flexible reward needs `points` within its range (400, 422 Invalid Points); store-credit shops sell flexible rewards only (403); ' +
      'a reward with `max_redemptions` refuses the customer past it (422 Redemption Limit Reached). ' +
      'If the discount code cannot be created the points are refunded and the answer is 500 (platform error) or 503 (platform unreachable): points are never lost or spent twice. ' +
      "By `discount_type`: `fixed` and `percentage` codes; `free_shipping` a free-shipping code (capped at `discount_amount` when more than 0); `free_product` a code that frees one unit of the reward's `product_variant_id`; " +
      "`store_credit` no code (`discount_code` null, `status` `used`, `store_credit_transaction_id`): `discount_amount` credited to the customer's Shopify store credit account, exactly once; " +
      'a credit Shopify did not confirm answers 503 and is settled within minutes (credited, or the points given back).',
    body: purchaseBodySchema,
    responses: { 201: 'Purchase', ...WRITE_ERRORS, 500: 'Error', 503: 'Error' },
  },
  createReferral: {
    tag: 'Referrals',
    summary: 'Refer a friend: a single-use discount code for the friend',
    description:
      "A member's `referral_code` and a friend's `email` create a single-use discount code for the friend from the shop's friend reward (`referral_settings.friend_reward_id` in its configuration: its discount, minimum spend and expiry), usable once by any buyer; the reward's `points_cost` is charged to no one. " +
      "The friend's first paid order (with this code, or carrying the member's referral code) earns the member the shop's referral points, as for any referral. A `referral.created` event is published. " +
      "422 with a detail saying why: Referrals Not Enabled (no `referral_settings`); Invalid Referral Code (unknown, or its member excluded); Self Referral (the member's own e-mail, also under another form: case, spaces, `+tags`, dots in a Gmail address, googlemail.com); " +
      'Already Referred (that mailbox was referred in this shop before, by anyone); Existing Customer (a member with that e-mail already has a paid order); Referral Limit Reached (the member referred `max_friends_per_day` friends this UTC day). ' +
      'Concurrent requests never pass these checks twice. 503 when the commerce platform errs or cannot be reached: nothing is recorded. A retry with the same `Idempotency-Key` answers the first response, or finishes the referral a stopped attempt began.',
    body: createReferralBodySchema,
    responses: { 201: 'Referral', ...WRITE_ERRORS, 500: 'Error', 503: 'Error' },
  },
  listReferrals: {
    tag: 'Referrals',
    summary: 'The friends a customer referred',
    description:
      'The referrals the customer made through `POST /v1/referrals`, newest first, paginated by page number (`meta.total_pages` says when to stop). ' +
      "Each is `pending` until the friend's first paid order counts as referred by this customer (an order paid with the friend's code), then `completed` with `completed_at`. " +
      'A referral whose code is still being created is not shown. 404 for an unknown customer; a bad `page[number]` or `page[size]` is a 400.',
    query: [...page],
    responses: { 200: 'ReferralList', 400: 'Error', 404: 'Error' },
  },
  listEarningRules: {
    tag: 'Earning rules',
    summary: 'Earning rules, with points for an optional customer',
    description:
      "The shop's earning rules. `points` = `points_to_give` × tier multiplier × campaign multiplier, rounded once, half away from zero. " +
      'The tier multiplier applies only with `filter[customer_identifier]`, for a member who reaches a tier (in `purchase` multiplier mode only to rules of category `purchase`), and `meta.tier_info` names it; ' +
      'the running bonus campaign with the highest multiplier applies to every rule and is named in `meta.campaign_info`. An unknown `filter[customer_identifier]` is a 404 naming it.',
    query: [
      filter('is_active', 'true or false', { type: 'string', enum: ['true', 'false'] }),
      filter('customer_identifier', 'Platform customer id or e-mail'),
      sort(['created_at', 'name']),
      ...page,
    ],
    responses: { 200: 'EarningRuleList', 400: 'Error', 404: 'Error' },
  },
  listVipTiers: {
    tag: 'VIP tiers',
    summary: 'All VIP tiers, by threshold',
    description:
      'Every tier of the shop in one response, ordered by `threshold` ascending, each with its rewards. There are no query parameters (any are ignored) and `meta.per_page` is the number of tiers. ' +
      '`meta` also says what thresholds measure (`entry_method`, `entry_methods_extra`, `entry_logic`) and `points_multiplier_mode`.',
    responses: { 200: 'VipTierList' },
  },
};

const SHOPPER_NOTE =
  "The shopper is verified before anything else is read: either the app proxy's signed query (`shop`, `logged_in_customer_id`, `path_prefix`, `timestamp` within 90 s, `signature`: HMAC-SHA256 of the shop's app secret) or `Authorization: Bearer <customer session token>` (HS256 with the app secret, `aud` the client id, `dest` the shop's domain). A customer id in the path, query or body is never read. " +
  'Every answer carries `Access-Control-Allow-Origin: *` and `Cache-Control: private, no-store`; `OPTIONS` answers the CORS preflight (204) without a token. ' +
  'A shop with legacy credentials (no client id and secret) has no app proxy or extensions: 401.';

/** One entry per shopper route: a route added without documentation fails to compile. */
export const SHOPPER_ROUTE_DOCS: Record<ShopperRouteName, RouteDoc> = {
  shopperProgram: {
    tag: 'Shopper',
    summary: 'The program as this shopper sees it',
    description:
      "Guests too. The active earning rules with the points `GET /v1/earning-rules` computes for this shopper (a member's tier multiplier and a running campaign applied; a purchase rule's for each whole `spend_unit`), the running `campaign` with its `ends_at`, the purchase rules' rates (`purchase_rates`: what an order of a price earns is, per rule, whole spend units × `points_to_give` × `tier_multiplier` × `campaign_multiplier`, rounded once, half away from zero) and `figures_until` (the next campaign start or end), the active purchasable rewards (no entry rewards; a reward of one tier is listed for everyone with its `vip_tier_id`) and the tiers from lowest to highest.",
    responses: { 200: 'ShopperProgram' },
  },
  shopperMember: {
    tag: 'Shopper',
    summary: "The signed-in member's own page",
    description:
      '`meta: { logged_in, member }` always; `data: null` for a guest or a customer who has not joined. A member sees their balance, lifetime and pending points, status, tier and the next one with what remains to reach it, referral link and code, the points that expire first and when (`null` when none will), ' +
      'and the rewards `POST /v1/rewards/{id}/purchase` would accept now (a flexible one at its minimum). An excluded customer is a member with `loyalty_status: "excluded"` and nothing redeemable.',
    responses: { 200: 'ShopperMember' },
  },
  shopperJoin: {
    tag: 'Shopper',
    summary: 'Join the program',
    description:
      'Enrols the signed-in customer exactly as `POST /v1/customers` does (the signup award once): `201` for a new member, `200` for one already enrolled, with the body of `GET /shopper/member`. A guest gets 401 asking to sign in. No body is needed.',
    responses: { 201: 'ShopperMember', 200: 'ShopperMember', 404: 'Error', 409: 'Error', 422: 'Error', 503: 'Error' },
  },
  shopperActivity: {
    tag: 'Shopper',
    summary: "The member's activity",
    description:
      `The earning and reward history merged, newest first: each line a \`kind\` (earned, spent, refunded, expired, adjusted), signed \`points\`, a customer-facing \`label\` (never an adjustment's note), its \`status\` and \`created_at\`. ` +
      `\`page[size]\` defaults to ${ACTIVITY_PAGE.default}; above ${ACTIVITY_PAGE.max} it is read as ${ACTIVITY_PAGE.max}. A guest: 401; a customer who is not a member: 404.`,
    query: [
      { name: 'page[number]', description: 'Page number, default 1', schema: { type: 'integer', minimum: 1 } },
      {
        name: 'page[size]',
        description: `Page size, default ${ACTIVITY_PAGE.default}, at most ${ACTIVITY_PAGE.max} (larger is served at ${ACTIVITY_PAGE.max})`,
        schema: { type: 'integer', minimum: 1 },
      },
    ],
    responses: { 200: 'ShopperActivityList', 400: 'Error', 404: 'Error' },
  },
  shopperRewards: {
    tag: 'Shopper',
    summary: "The member's rewards",
    description:
      `The codes the member bought and can still use, newest first: active, not used by an order, not refunded and not past their end date. Each with the reward's name, the code, the discount it gives (\`discount_type\`, \`discount_value\`, \`minimum_spend\`), the points spent, \`expires_at\` (\`null\`: no end date) and \`created_at\`. ` +
      `\`page[size]\` defaults to ${ACTIVITY_PAGE.default}; above ${ACTIVITY_PAGE.max} it is read as ${ACTIVITY_PAGE.max}. A guest: 401; a customer who is not a member: 404.`,
    query: [
      { name: 'page[number]', description: 'Page number, default 1', schema: { type: 'integer', minimum: 1 } },
      {
        name: 'page[size]',
        description: `Page size, default ${ACTIVITY_PAGE.default}, at most ${ACTIVITY_PAGE.max} (larger is served at ${ACTIVITY_PAGE.max})`,
        schema: { type: 'integer', minimum: 1 },
      },
    ],
    responses: { 200: 'ShopperRewardList', 400: 'Error', 404: 'Error' },
  },
  shopperRedeem: {
    tag: 'Shopper',
    summary: 'Redeem a reward',
    description:
      'Exactly `POST /v1/rewards/{id}/purchase` for the signed-in member: the same validations, statuses and error details, the same saga and reconciliation. `{}` for a fixed reward, `{ "points": N }` for a flexible one. ' +
      "An `Idempotency-Key` is honoured as on `/v1`, scoped to the shopper: a request is its method, path and body (not the proxy's parameters). A guest: 401; a customer who is not a member: 404.",
    body: redeemBodySchema,
    responses: { 201: 'Redemption', 400: 'Error', 403: 'Error', 404: 'Error', 409: 'Error', 422: 'Error', 503: 'Error' },
  },
  shopperRefund: {
    tag: 'Shopper',
    summary: 'Undo a redemption',
    description:
      "Exactly `POST /v1/customers/{identifier}/reward-history/{id}/refund` for the signed-in member (checkout's undo before paying): `{id}` is the redemption's id that `POST /shopper/rewards/{id}/redeem` answered. " +
      'The code is deleted on the commerce platform first (503 and nothing changed when the platform cannot), then the points come back in one write; a `store_credit` redemption has its amount debited from the store credit account first (422 Store Credit Spent when spent). ' +
      '422 with a detail for a code already used, expired or already refunded; 403 for an excluded member. The answer is the entry as the `/v1` route serialises it, with `meta` carrying `loyalty_mode` and `currency`. ' +
      "An `Idempotency-Key` is honoured as on `/v1`, scoped to the shopper. No body is needed. A guest: 401; a customer who is not a member, or an entry that is not this member's (another member's included): 404.",
    responses: { 200: 'RewardHistoryEntry', 400: 'Error', 403: 'Error', 404: 'Error', 409: 'Error', 422: 'Error', 503: 'Error' },
  },
  shopperEstimate: {
    tag: 'Shopper',
    summary: 'What an order of this cart would earn',
    description:
      "Guests too; read-only (nothing is written, no Idempotency-Key). The cart as checkout sees it: each line's unit `price` before discounts, `quantity`, `gift_card` and optionally its `tax` for all its units; the order-level `discount`; the `currency`, which must be the shop's. " +
      "The answer is what an order of that cart paid now would earn, computed as the earning engine computes the paid order's points: `eligible_amount` is the subtotal after the discount, less the lines' tax where the shop's prices include tax (`earning_settings.taxes_included`), less the gift-card lines (the discount is allocated over the other lines in proportion to their price × quantity, never to a gift card, and never more than they hold); `points` are the purchase rules' points for it at the member's tier and the running campaign. " +
      'A guest or a customer who has not joined gets what a new member without a tier would earn (no signup points); an excluded member `0`. `status` is `pending` with `points_due_at` (now + `pending_days`) where the shop holds points for a return window, else `approved` with `points_due_at: null` (also for 0 points). ' +
      `400 for a malformed cart: no lines or more than ${ESTIMATE_MAX_LINES}, a quantity that is not a positive integer, a price, tax or discount that is not a non-negative decimal string or has more decimals than the currency, another currency than the shop's.`,
    body: estimateBodySchema,
    responses: { 200: 'ShopperEstimate', 400: 'Error' },
  },
};

const STAFF_NOTE =
  "The staff member is verified before anything else is read: `Authorization: Bearer <ID token>`, the JWT Shopify's admin gives the embedded app (App Bridge adds it to the app's own calls): HS256 with the shop's app secret, `aud` the client id, `iss` `https://{shop}/admin` and `dest` `https://{shop}` naming the same shop, `sub` the staff user, `exp`/`nbf` with 10 s of leeway. " +
  'A missing, expired or forged token: 401 with `X-Shopify-Retry-Invalid-Session-Request: 1` (App Bridge fetches a fresh token and retries once); an API key or a customer session token: 401 without it. Every answer carries `Access-Control-Allow-Origin: *`.';

/** One entry per staff-only API route of the manifest's pages: a route added without documentation fails to compile. */
export const STAFF_ROUTE_DOCS: Record<AdminApiRouteName, RouteDoc> = {
  programOverview: {
    tag: 'Staff',
    summary: "The program's figures",
    description:
      `The program's figures for up to ${MAX_RANGE_DAYS} UTC days, both ends included: members (total, new in range, excluded), points outstanding and pending now, the liability at the point value, what was issued (by source), redeemed, expired and clawed back in range, redemptions and codes used, member and loyalty orders and revenue, the lifetime redemption and repeat purchase rates, and one row per day of the range, ascending. ` +
      "`to` defaults to today (UTC, on the service's clock), `from` to `to` − 29; a longer range, `from` after `to` or a date that does not exist: 400. " +
      'The figures are exact (kept by counting the loyalty events once each); an answer reads O(days in range) items, never O(members).',
    query: [
      {
        name: 'from',
        description: 'First day of the range, `YYYY-MM-DD` (UTC); default `to` − 29',
        schema: { type: 'string', format: 'date' },
      },
      { name: 'to', description: 'Last day of the range, `YYYY-MM-DD` (UTC); default today', schema: { type: 'string', format: 'date' } },
    ],
    responses: { 200: 'ProgramOverview', 400: 'Error' },
  },
  browseMembers: {
    tag: 'Staff',
    summary: 'The member list',
    description:
      "One page of the shop's members, excluded ones included, each the customer object with `last_activity_at` (the last earning or spending, else the enrolment): sorted by points, enrolment (`joined`) or last activity, either way, filtered by status and tier, continued by `meta.page.next_cursor` (`null` on the last page). " +
      "A tier is listed by last activity only (`filter[tier]` with another sort: 400). A cursor belongs to its list: another sort, filter, page size or shop refuses it (400). A page reads at most `page[size] + 1` index entries of each partition it spans and the page's profiles, whatever the shop's size or the depth.",
    query: [
      {
        name: 'sort',
        description: 'points, joined or last_activity; prefix - for descending. Default -points',
        schema: { type: 'string', enum: ['points', '-points', 'joined', '-joined', 'last_activity', '-last_activity'] },
      },
      filter('loyalty_status', 'member or excluded', { type: 'string', enum: ['member', 'excluded'] }),
      filter('tier', 'A tier id of the shop, or `none` for members of no tier (with sort=last_activity or -last_activity)'),
      filter(
        'name',
        'The search by name: the members one of whose first or last name words starts with each word of this text (any case, accents or not), in the order of the matched word; `meta.sort` is `name`. Takes no `sort` and no other filter.',
        { type: 'string', minLength: 1, maxLength: 200 },
      ),
      {
        name: 'page[size]',
        description: `Page size, default ${DEFAULT_PAGE_SIZE}, at most ${MAX_PAGE_SIZE} (larger is served at ${MAX_PAGE_SIZE})`,
        schema: { type: 'integer', minimum: 1 },
      },
      { name: 'page[cursor]', description: "The previous page's `meta.page.next_cursor`", schema: { type: 'string', minLength: 1 } },
    ],
    responses: { 200: 'MemberList', 400: 'Error', 503: 'Error' },
  },
  staffProgram: {
    tag: 'Staff',
    summary: 'The program, for staff at the shop counter',
    description:
      'The body `GET /shopper/program` answers a shopper of no tier: the active earning rules, the running campaign, the active purchasable rewards (no entry rewards; in a store credit shop the flexible ones; a reward of one tier is listed with its `vip_tier_id`) and the tiers from lowest to highest. ' +
      "The POS extension reads the rewards a member can afford against it (the member's `current_points`, tier and status from `GET /admin/api/v1/customers/{identifier}`), then redeems with `POST /admin/api/v1/rewards/{id}/purchase` (docs/pos.md). It reads the shop's catalog, nothing of any member; it takes no query parameter (400).",
    responses: { 200: 'ShopperProgram', 400: 'Error' },
  },
};

/** What each status means on this API; the operation's description says when it happens. */
const STATUS_DESCRIPTIONS: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  400: 'Bad Request: invalid body, query or JSON',
  401: 'Unauthorized: missing, unknown or revoked API key; on /shopper, a shopper that could not be verified (or a guest where one must sign in)',
  403: 'Forbidden: read-only key on a write, excluded customer, or reward not allowed',
  404: 'Not Found: customer, entry or reward unknown',
  409: 'Conflict: a request with the same Idempotency-Key is still running',
  422: 'Unprocessable: points rules refused the request, or the Idempotency-Key was used with another body',
  429: 'Too Many Requests: rate limit exceeded',
  500: 'Internal Server Error',
  503: 'Service Unavailable: the commerce platform cannot be reached',
};

function docFor(name: string): RouteDoc | undefined {
  return Object.hasOwn(ROUTE_DOCS, name) ? ROUTE_DOCS[name as RouteName] : undefined;
}

/** The parts of a description the manifest fixes, so they cannot disagree with the gateway. */
function accessNote(route: Route): string {
  const scope = route.scope === 'full' ? 'Needs a full-access key; a read-only key gets 403.' : 'Any key, full access or read only.';
  const { rateLimit, burstLimit } = THROTTLE_LIMITS[route.throttle];
  return `${scope} Rate limit: ${rateLimit} requests per second per key (burst ${burstLimit}), then 429.`;
}

function jsonSchema(schema: z.core.$ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    reused: 'inline',
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  return rest;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function operation(route: Route, doc: RouteDoc) {
  const pathParameters = [...route.path.matchAll(/\{([^}]+)\}/g)].map((match) => ({
    name: match[1]!,
    in: 'path',
    required: true,
    description: match[1] === 'identifier' ? 'Platform customer id (numeric) or e-mail address' : 'Identifier',
    schema: { type: 'string' },
  }));
  const query = (doc.query ?? []).map((p) => ({
    name: p.name,
    in: 'query',
    required: false,
    description: p.description,
    schema: p.schema,
  }));
  const idempotency =
    route.scope === 'full'
      ? [
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: false,
            description: 'Retries with the same key and body return the first response',
            schema: { type: 'string', minLength: 1, maxLength: 255 },
          },
        ]
      : [];
  const responses: Record<string, unknown> = {};
  const statuses: Partial<Record<number, ResponseSchemaName>> = { ...doc.responses, 401: 'Error', 429: 'Error', 500: 'Error' };
  for (const [status, name] of Object.entries(statuses)) {
    const meaning = STATUS_DESCRIPTIONS[Number(status)] ?? `HTTP ${status}`;
    responses[status] = {
      description: name === 'Error' ? `${meaning} (error envelope)` : `${meaning}: ${name}`,
      content: { 'application/json': { schema: ref(name!) } },
    };
  }
  return {
    operationId: route.name,
    tags: [doc.tag],
    summary: doc.summary,
    description: `${doc.description}\n\n${accessNote(route)}`,
    security: [{ apiKey: [] }],
    parameters: [...pathParameters, ...query, ...idempotency],
    ...(doc.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(doc.body, 'input') } } } } : {}),
    responses,
    ...(route.throttle === 'strict' ? { 'x-rate-limit': '6 requests per second per key' } : {}),
    ...(doc.staffMirror
      ? {
          'x-staff-mirror-response': {
            description: `The 200 answer of the same operation under \`${STAFF_API_PREFIX}\` (tag Staff): each entry also says who made it.`,
            content: { 'application/json': { schema: ref(doc.staffMirror) } },
          },
        }
      : {}),
  };
}

/** A shopper route's operation: its two security schemes, no API key, the stage's method throttle. */
function shopperOperation(route: ShopperRoute, doc: RouteDoc) {
  const routeClass = shopperRouteClass(route);
  const base = operation({ ...route, scope: routeClass === 'read' ? 'read' : 'full', throttle: 'standard' }, doc);
  const { rateLimit, burstLimit } = route.throttle;
  const budget = SHOPPER_BUDGET[routeClass];
  const corsHeader = { description: 'Always `*`', schema: { type: 'string', const: SHOPPER_CORS_HEADERS['Access-Control-Allow-Origin'] } };
  const responses = Object.fromEntries(
    Object.entries(base.responses).map(([status, response]) => [
      status,
      { ...(response as object), headers: { 'Access-Control-Allow-Origin': corsHeader } },
    ]),
  );
  return {
    ...base,
    description: `${doc.description}\n\n${SHOPPER_NOTE} Rate limit: ${budget.rateLimit} requests per second per shop for its verified shoppers (burst ${budget.burstLimit}), and ${rateLimit} requests per second for all shops and callers together (burst ${burstLimit}); past either, 429.`,
    security: [{ appProxySignature: [] }, { customerSessionToken: [] }],
    parameters: base.parameters.map((parameter) =>
      parameter.name === 'Idempotency-Key'
        ? { ...parameter, description: 'Retries by the same shopper with the same key, method, path and body return the first response' }
        : parameter,
    ),
    responses,
  };
}

/** A staff-only API route's operation: the staff ID token, no API key, the stage's method throttle. */
function staffOperation(page: PageRoute, doc: RouteDoc) {
  const base = operation({ ...page, scope: 'read', throttle: 'standard' }, doc);
  const corsHeader = { description: 'Always `*`', schema: { type: 'string', const: STAFF_CORS_HEADERS['Access-Control-Allow-Origin'] } };
  const retryHeader = {
    description: '`1` when App Bridge should fetch a fresh ID token and try once more (a missing, expired or forged token)',
    schema: { type: 'string', const: '1' },
  };
  const responses = Object.fromEntries(
    Object.entries(base.responses).map(([status, response]) => [
      status,
      {
        ...(response as object),
        ...(status === '401'
          ? { description: 'Unauthorized: no valid staff ID token (an API key or a customer session token is none) (error envelope)' }
          : {}),
        headers: {
          'Access-Control-Allow-Origin': corsHeader,
          ...(status === '401' ? { [STAFF_CORS_HEADERS['Access-Control-Expose-Headers']]: retryHeader } : {}),
        },
      },
    ]),
  );
  const { rateLimit, burstLimit } = page.throttle;
  return {
    ...base,
    description: `${doc.description}\n\n${STAFF_NOTE} Rate limit: ${rateLimit} requests per second for all shops' staff together (burst ${burstLimit}), then 429.`,
    security: [{ staffIdToken: [] }],
    responses,
  };
}

/** The CORS preflight of a shopper path. */
function preflightOperation(path: string) {
  const headers = Object.fromEntries(
    Object.entries(SHOPPER_CORS_HEADERS).map(([name, value]) => [
      name,
      { description: `Always \`${value}\``, schema: { type: 'string', const: value } },
    ]),
  );
  return {
    operationId: `preflight${path.replace(/[^A-Za-z]+(\w)?/g, (_match, next: string | undefined) => (next ?? '').toUpperCase())}`,
    tags: ['Shopper'],
    summary: 'CORS preflight',
    description: 'Answered by the gateway without a token: 204 with the CORS headers every shopper answer carries.',
    security: [],
    parameters: [...path.matchAll(/\{([^}]+)\}/g)].map((match) => ({
      name: match[1]!,
      in: 'path',
      required: true,
      description: 'Identifier',
      schema: { type: 'string' },
    })),
    responses: { 204: { description: 'No Content: the CORS headers', headers } },
  };
}

export function buildOpenApiDocument(
  routes: readonly Route[] = ROUTES,
  shopperRoutes: readonly ShopperRoute[] = SHOPPER_ROUTES,
  pages: readonly PageRoute[] = ADMIN_PAGES,
) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const doc = docFor(route.name);
    if (!doc) throw new Error(`Route ${route.name} has no OpenAPI documentation in shared/openapi/openapi-document.ts`);
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route, doc);
  }
  for (const route of shopperRoutes) {
    const doc = Object.hasOwn(SHOPPER_ROUTE_DOCS, route.name) ? SHOPPER_ROUTE_DOCS[route.name as ShopperRouteName] : undefined;
    if (!doc) throw new Error(`Shopper route ${route.name} has no OpenAPI documentation in shared/openapi/openapi-document.ts`);
    const operations = (paths[route.path] ??= {});
    operations[route.method.toLowerCase()] = shopperOperation(route, doc);
    operations.options ??= preflightOperation(route.path);
  }
  // The staff-only API routes (the pages of HTML, such as `/admin`, are not API operations).
  for (const page of pages.filter(isAdminApiPage)) {
    const doc = Object.hasOwn(STAFF_ROUTE_DOCS, page.name) ? STAFF_ROUTE_DOCS[page.name as AdminApiRouteName] : undefined;
    if (!doc) throw new Error(`Staff route ${page.name} has no OpenAPI documentation in shared/openapi/openapi-document.ts`);
    (paths[page.path] ??= {})[page.method.toLowerCase()] = staffOperation(page, doc);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Loyalty API',
      version: '1.0.0',
      description:
        "A store's loyalty program for server-side callers: customers and their points, earning and reward history, reward redemption into discount codes, earning rules and VIP tiers. " +
        'Every request carries the API key as the bare `Authorization` header; every error comes in the envelope `{ "errors": [ { "status", "title", "detail" } ] }`. ' +
        'Writes accept an `Idempotency-Key` header so a retry returns the first answer. ' +
        'The `/shopper/...` routes are the exception: they serve one shopper, verified by Shopify (the app proxy signature or a customer session token), without a key. ' +
        `So are the staff routes under \`${STAFF_API_PREFIX}\`, for the app in Shopify's admin, verified by the staff member's ID token: the program's figures, the member list, and a mirror of every \`/v1\` operation (tag Staff).`,
      // Each store runs its own deployment, so the contact is whoever operates it, not a vendor address.
      contact: { name: 'The team operating this deployment' },
    },
    servers: [{ url: '/', description: 'Where this document is served: the local twin. A deployed stack answers at its ApiUrl output.' }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'The bare API key, no Bearer prefix' },
        appProxySignature: {
          type: 'apiKey',
          in: 'query',
          name: 'signature',
          description:
            "Shopify's app proxy (`/shopper/...` reached as `https://{shop}/apps/loyalty/...`): `signature` is the lowercase hex HMAC-SHA256, under the shop's app secret, of the other query parameters (`shop`, `logged_in_customer_id`, `path_prefix`, `timestamp` within 90 s, and the request's own) sorted and concatenated as Shopify documents.",
        },
        staffIdToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            "A Shopify admin ID token (App Bridge adds it to the embedded app's calls): HS256 with the shop's app secret, `aud` the app's client id, `iss` `https://{shop}/admin` and `dest` `https://{shop}` naming the same shop, `sub` the staff user's id, `exp`/`nbf` (10 s leeway), `jti` and `sid`.",
        },
        customerSessionToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            "A customer account UI extension's session token: HS256 with the shop's app secret, `aud` the app's client id, `dest` the shop's domain, `exp`/`nbf` (10 s leeway), `sub` `gid://shopify/Customer/<id>` or absent for a guest.",
        },
      },
      schemas: Object.fromEntries(Object.entries(RESPONSE_SCHEMAS).map(([name, schema]) => [name, jsonSchema(schema, 'output')])),
    },
    paths,
  };
}
