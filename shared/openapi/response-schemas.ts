// Every response body of the API as zod schemas, strict where the serializers' output is fixed, so
// the OpenAPI document and the e2e validation catch any drift between code, document and spec.
import { z } from 'zod';
import { REWARD_KINDS } from '../domain/shop';

/** A tier as the customer object shows it, and the shopper's own page. */
const customerVipTierSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    threshold: z.number(),
    points_multiplier: z.number(),
    badge_image_url: z.string().nullable(),
    badge_color: z.string(),
  })
  .strict()
  .nullable();

const int = z.number().int();
const timestamp = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
const date = z.string();
const loyaltyMode = z.enum(['points', 'store_credit']);
const currency = z.string().regex(/^[A-Z]{3}$/);
const money = z.string().regex(/^-?\d+\.\d{2,3}$/);

const resource = <A extends z.ZodType>(type: string, attributes: A) =>
  z.object({ type: z.literal(type), id: z.string(), attributes }).strict();

export const errorEnvelopeSchema = z
  .object({ errors: z.array(z.object({ status: z.string(), title: z.string(), detail: z.string() }).strict()).min(1) })
  .strict();

export const pageMetaShape = { total: int, page: int, per_page: int, total_pages: int };
const modeMetaShape = { loyalty_mode: loyaltyMode, currency };

const customerAttributesShape = {
  platform_customer_id: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  current_points: int,
  lifetime_points: int,
  redeemed_points: int,
  loyalty_status: z.enum(['member', 'excluded']),
  loyalty_mode: loyaltyMode,
  store_credit: z.object({ balance: money, currency }).strict().nullable(),
  date_of_birth: date.nullable(),
  anniversary_date: date.nullable(),
  referral_url: z.string(),
  referral_code: z.string(),
  vip_tier: customerVipTierSchema,
  created_at: timestamp,
  updated_at: timestamp,
};

export const customerSchema = resource('customer', z.object(customerAttributesShape).strict());

/** A member of the staff's member list: the customer object and its last earning or spending (else the enrolment). */
export const listedMemberSchema = resource('customer', z.object({ ...customerAttributesShape, last_activity_at: timestamp }).strict());

const dayDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const count = int.min(0);
/** A non-negative decimal amount in the currency's minor digits (none for a currency without them). */
const decimal = z.string().regex(/^\d+(\.\d+)?$/);

/** The program's figures (`GET /admin/api/overview`, SURFACES-CONTRACT.md "The program's figures"). */
export const programOverviewSchema = resource(
  'program_overview',
  z
    .object({
      members: z.object({ total: count, new: count, excluded: count }).strict(),
      points_outstanding: int,
      points_pending: int,
      liability: z.object({ amount: decimal, currency, point_value: decimal }).strict(),
      in_range: z
        .object({
          issued: z
            .object({
              purchase: count,
              signup: count,
              birthday: count,
              referral: count,
              action: count,
              manual: count,
              import: count,
              refund: count,
            })
            .strict(),
          redeemed: count,
          expired: count,
          clawed_back: count,
          redemptions: count,
          codes_used: count,
          member_orders: count,
          member_revenue: decimal,
          loyalty_orders: count,
          loyalty_revenue: decimal,
        })
        .strict(),
      redemption_rate: z.number().min(0),
      repeat_purchase_rate: z.number().min(0).max(1),
      daily: z.array(
        z.object({ date: dayDate, issued: count, redeemed: count, expired: count, new_members: count, member_revenue: decimal }).strict(),
      ),
    })
    .strict(),
);

export const pointsAdjustmentSchema = resource(
  'points_adjustment',
  z
    .object({
      platform_customer_id: z.string(),
      adjustment: int,
      points_before: int,
      points_after: int,
      current_points: int,
      loyalty_mode: loyaltyMode,
      currency,
      credit_adjustment: money.optional(),
      credit_before: money.optional(),
      credit_after: money.optional(),
      credit_balance: money.optional(),
    })
    .strict(),
);

const earningHistoryAttributesShape = {
  earning_rule_id: z.string().nullable(),
  action: z.string(),
  points: int,
  base_points: int,
  points_multiplier: z.number(),
  status: z.enum(['pending', 'approved', 'rejected']),
  order_id: z.string().nullable(),
  order_number: z.string().nullable(),
  points_due_at: z.string().nullable(),
  points_given_at: z.string().nullable(),
  points_expiry_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
};

export const earningHistoryEntrySchema = resource('earning_history_entry', z.object(earningHistoryAttributesShape).strict());

/** What a reward gives (docs/program.md#reward-kinds). */
const rewardKind = z.enum(REWARD_KINDS);

/** Only on a `store_credit` entry: its Shopify store credit transaction. */
const storeCreditTransactionId = z.string().nullable().optional();

const rewardHistoryAttributesShape = {
  reward_id: z.string(),
  reward_name: z.string(),
  reward_discount_type: rewardKind,
  points_spent: int,
  discount_code: z.string().nullable(),
  status: z.enum(['active', 'used', 'expired']),
  is_refunded: z.boolean(),
  discount_code_redeemed_at: z.string().nullable(),
  redeemed_at: z.string(),
  expires_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  store_credit_transaction_id: storeCreditTransactionId,
};

export const rewardHistoryEntrySchema = resource('reward_history_entry', z.object(rewardHistoryAttributesShape).strict());

/**
 * Who made a history entry, as the staff routes' (`/admin/api/v1`) entries say it (shared/history/history-resource.ts):
 * a staff user, an API key by its name, the shopper (their own redemption), Shopify, the system, or unknown.
 */
const entryActorSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('staff'), id: z.string() }).strict(),
  z.object({ type: z.literal('api_key'), id: z.string(), name: z.string() }).strict(),
  z.object({ type: z.literal('customer') }).strict(),
  z.object({ type: z.literal('shopify') }).strict(),
  z.object({ type: z.literal('system') }).strict(),
  z.object({ type: z.literal('unknown') }).strict(),
]);

/** An earning entry as the staff mirror answers it: who made it, its order's channel, an adjustment's internal note. */
export const staffEarningHistoryEntrySchema = resource(
  'earning_history_entry',
  z
    .object({
      ...earningHistoryAttributesShape,
      actor: entryActorSchema,
      order_source_name: z.string().nullable(),
      note: z.string().optional(),
    })
    .strict(),
);

/** A reward entry as the staff mirror answers it: who made the redemption. */
export const staffRewardHistoryEntrySchema = resource(
  'reward_history_entry',
  z.object({ ...rewardHistoryAttributesShape, actor: entryActorSchema }).strict(),
);

export const purchaseSchema = resource(
  'reward_history_entry',
  z
    .object({
      reward_id: z.string(),
      reward_name: z.string(),
      reward_discount_type: rewardKind,
      points_spent: int,
      loyalty_mode: loyaltyMode,
      currency,
      credit_spent: money.optional(),
      discount_code: z.string().nullable(),
      status: z.enum(['active', 'used']),
      expires_at: timestamp.nullable(),
      store_credit_transaction_id: storeCreditTransactionId,
    })
    .strict(),
);

const referralAttributes = {
  referral_code: z.string(),
  referrer_platform_customer_id: z.string(),
  email: z.string().nullable(),
  discount_code: z.string(),
  expires_at: timestamp.nullable(),
  created_at: timestamp,
};

export const referralSchema = resource('referral', z.object(referralAttributes).strict());

export const listedReferralSchema = resource(
  'referral',
  z.object({ ...referralAttributes, status: z.enum(['pending', 'completed']), completed_at: timestamp.nullable() }).strict(),
);

export const earningRuleSchema = resource(
  'earning_rule',
  z
    .object({
      name: z.string(),
      description: z.string().nullable(),
      action: z.string(),
      category: z.string(),
      is_active: z.boolean(),
      points_to_give: int,
      customer_facing_label: z.string(),
      call_to_action_url: z.string().nullable(),
      created_at: z.string(),
      points: int,
      base_points: int,
      tier_boost: z.number().nullable(),
      campaign_boost: z.number().nullable(),
    })
    .strict(),
);

const tierRewardSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    discount_type: rewardKind,
    reward_type: z.string(),
    points_cost: int,
    discount_amount: z.number(),
    minimum_spend: z.number(),
    is_active: z.boolean(),
    max_redemptions: int.nullable(),
    expiry_days: int.nullable(),
    product_variant_id: z.string().nullable(),
    created_at: z.string(),
  })
  .strict();

export const vipTierSchema = resource(
  'vip_tier',
  z
    .object({
      name: z.string(),
      description: z.string(),
      threshold: z.number(),
      threshold_points: z.number().nullable(),
      threshold_spend: z.number().nullable(),
      threshold_orders: z.number().nullable(),
      points_multiplier: z.number(),
      position: int,
      badge_image_url: z.string().nullable(),
      badge_color: z.string(),
      rewards: z.array(tierRewardSchema),
      created_at: z.string(),
    })
    .strict(),
);

const contactDate = (type: string, field: 'date_of_birth' | 'anniversary_date') =>
  resource(type, z.object({ platform_customer_id: z.string(), email: z.string(), [field]: date.nullable() }).strict());

export const birthdaySchema = contactDate('customer_birthday', 'date_of_birth');
export const anniversarySchema = contactDate('customer_anniversary', 'anniversary_date');

const shopperTier = z
  .object({
    id: z.string(),
    name: z.string(),
    threshold: z.number(),
    points_multiplier: z.number(),
    badge_color: z.string(),
    badge_image_url: z.string().nullable(),
  })
  .strict();

export const programSchema = resource(
  'program',
  z
    .object({
      loyalty_mode: loyaltyMode,
      currency,
      earning_rules: z.array(
        z
          .object({
            id: z.string(),
            name: z.string(),
            action: z.string(),
            customer_facing_label: z.string(),
            call_to_action_url: z.string().nullable(),
            points: int,
            spend_unit: z.number().nullable(),
          })
          .strict(),
      ),
      campaign: z.object({ id: z.string(), name: z.string(), multiplier: z.number(), ends_at: timestamp }).strict().nullable(),
      purchase_rates: z.array(
        z
          .object({
            rule_id: z.string(),
            spend_unit: z.number().nullable(),
            points_to_give: int,
            tier_multiplier: z.number().nullable(),
            campaign_multiplier: z.number().nullable(),
          })
          .strict(),
      ),
      figures_until: timestamp.nullable(),
      rewards: z.array(
        z
          .object({
            id: z.string(),
            name: z.string(),
            description: z.string().nullable(),
            discount_type: rewardKind,
            discount_amount: z.number(),
            minimum_spend: z.number(),
            redemption_mode: z.enum(['fixed', 'flexible']),
            points_cost: int,
            flexible: z.object({ min_points: int, max_points: int, points_per_unit: int }).strict().nullable(),
            vip_tier_id: z.string().nullable(),
            expiry_days: int.nullable(),
            product_variant_id: z.string().nullable(),
          })
          .strict(),
      ),
      vip_tiers: z.array(shopperTier),
    })
    .strict(),
);

export const shopperMemberSchema = resource(
  'shopper_member',
  z
    .object({
      first_name: z.string(),
      current_points: int,
      lifetime_points: int,
      pending_points: int,
      loyalty_status: z.enum(['member', 'excluded']),
      vip_tier: customerVipTierSchema,
      next_tier: z.object({ id: z.string(), name: z.string(), threshold: z.number(), remaining: z.number() }).strict().nullable(),
      referral_url: z.string(),
      referral_code: z.string(),
      points_expiring: z.object({ points: int, at: timestamp }).strict().nullable(),
      redeemable_reward_ids: z.array(z.string()),
    })
    .strict(),
);

export const redemptionSchema = resource(
  'redemption',
  z
    .object({
      reward_id: z.string(),
      reward_name: z.string(),
      points_spent: int,
      discount_code: z.string().nullable(),
      expires_at: timestamp.nullable(),
      status: z.enum(['active', 'used']),
      store_credit_transaction_id: storeCreditTransactionId,
    })
    .strict(),
);

export const activitySchema = resource(
  'activity',
  z
    .object({
      kind: z.enum(['earned', 'spent', 'refunded', 'expired', 'adjusted']),
      points: int,
      label: z.string(),
      status: z.string(),
      created_at: z.string(),
      discount_code: z.string().nullable(),
    })
    .strict(),
);

export const memberRewardSchema = resource(
  'member_reward',
  z
    .object({
      reward_id: z.string(),
      reward_name: z.string(),
      discount_code: z.string(),
      discount_type: z.string(),
      discount_value: z.number().nullable(),
      minimum_spend: z.number().nullable(),
      points_spent: int,
      expires_at: timestamp.nullable(),
      created_at: timestamp,
    })
    .strict(),
);

export const estimateSchema = z
  .object({
    type: z.literal('estimate'),
    attributes: z
      .object({
        points: int.nonnegative(),
        status: z.enum(['pending', 'approved']),
        points_due_at: timestamp.nullable(),
        eligible_amount: money,
      })
      .strict(),
  })
  .strict();

const single = <S extends z.ZodType>(data: S) => z.object({ data }).strict();
const singleWithMode = <S extends z.ZodType>(data: S) => z.object({ data, meta: z.object(modeMetaShape).strict() }).strict();
const list = <S extends z.ZodType, M extends z.ZodRawShape>(item: S, meta: M) =>
  z.object({ data: z.array(item), meta: z.object({ ...pageMetaShape, ...meta }).strict() }).strict();

/** Response bodies by name; the OpenAPI document puts each under components.schemas. */
export const RESPONSE_SCHEMAS = {
  Error: errorEnvelopeSchema,
  Customer: single(customerSchema),
  CustomerList: list(customerSchema, modeMetaShape),
  CustomerBirthday: single(birthdaySchema),
  CustomerAnniversary: single(anniversarySchema),
  PointsAdjustment: single(pointsAdjustmentSchema),
  EarningHistoryList: list(earningHistoryEntrySchema, {}),
  EarningHistoryEntry: singleWithMode(earningHistoryEntrySchema),
  RewardHistoryList: list(rewardHistoryEntrySchema, modeMetaShape),
  RewardHistoryEntry: singleWithMode(rewardHistoryEntrySchema),
  /** The staff mirror's history lists (`/admin/api/v1/customers/{identifier}/...-history`): the entries say who made them. */
  StaffEarningHistoryList: list(staffEarningHistoryEntrySchema, {}),
  StaffRewardHistoryList: list(staffRewardHistoryEntrySchema, modeMetaShape),
  EarningRuleList: list(earningRuleSchema, {
    ...modeMetaShape,
    tier_info: z
      .object({ multiplier: z.number(), name: z.string(), mode: z.enum(['purchase', 'all']).nullable() })
      .strict()
      .nullable(),
    campaign_info: z.object({ name: z.string() }).strict().nullable(),
  }),
  VipTierList: list(vipTierSchema, {
    ...modeMetaShape,
    entry_method: z.enum(['points', 'spend', 'orders']),
    entry_methods_extra: z.array(z.enum(['points', 'spend', 'orders'])),
    entry_logic: z.enum(['AND', 'OR']),
    points_multiplier_mode: z.enum(['purchase', 'all']).nullable(),
  }),
  Purchase: single(purchaseSchema),
  Referral: single(referralSchema),
  ReferralList: list(listedReferralSchema, {}),
  ShopperProgram: single(programSchema),
  ShopperMember: z
    .object({
      data: shopperMemberSchema.nullable(),
      meta: z.object({ logged_in: z.boolean(), member: z.boolean() }).strict(),
    })
    .strict(),
  ShopperActivityList: list(activitySchema, {}),
  ShopperRewardList: list(memberRewardSchema, {}),
  Redemption: single(redemptionSchema),
  ShopperEstimate: single(estimateSchema),
  ProgramOverview: single(programOverviewSchema),
  MemberList: z
    .object({
      data: z.array(listedMemberSchema),
      meta: z
        .object({
          page: z.object({ size: int.min(1), next_cursor: z.string().nullable() }).strict(),
          sort: z.enum(['points', '-points', 'joined', '-joined', 'last_activity', '-last_activity', 'name']),
          ...modeMetaShape,
        })
        .strict(),
    })
    .strict(),
} as const;

export type ResponseSchemaName = keyof typeof RESPONSE_SCHEMAS;
