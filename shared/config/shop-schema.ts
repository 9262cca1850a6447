// One shop of the configuration file, section by section (settings, keys, rules, campaigns, tiers,
// rewards, the platform's customers, members and their history), with the defaults the format implies.
import { z } from 'zod';
import { HISTORY_ACTIONS, isEngineAction, isHistoryAction } from '../domain/action-limit';
import { API_KEY_SHAPE } from '../domain/api-key';
import { ACTION_LIMIT_PERIODS, REWARD_KINDS } from '../domain/shop';
import {
  HEX_COLOUR,
  NUMERIC_ID,
  SHOP_ID,
  amount,
  calendarDate,
  count,
  entryMethod,
  isCurrency,
  isEmailAddress,
  isHttpUrl,
  itemId,
  multiplier,
  parseTime,
  positiveCount,
  text,
  timestamp,
} from './field-types';

export const vipSettingsSchema = z.strictObject({
  entry_method: entryMethod.default('points'),
  entry_methods_extra: z.array(entryMethod).default([]),
  entry_logic: z.enum(['AND', 'OR']).default('OR'),
  points_multiplier_mode: z.enum(['purchase', 'all']).nullable().default(null),
});

export const apiKeySchema = z.strictObject({
  name: text(),
  scope: z.enum(['full', 'read']),
  // The shape the authorizer accepts: a key outside it could never authenticate.
  key: z
    .string()
    .min(API_KEY_SHAPE.minLength, `must be at least ${API_KEY_SHAPE.minLength} characters`)
    .max(API_KEY_SHAPE.maxLength, `must be at most ${API_KEY_SHAPE.maxLength} characters`)
    .regex(API_KEY_SHAPE.alphabet, 'must use only letters, digits, _ and -'),
  revoked: z.boolean().default(false),
});

/** How often a member may earn an action rule: `times` per `per` (UTC calendar periods; weeks from Monday). */
export const actionLimitSchema = z.strictObject({
  times: positiveCount(),
  per: z.enum(ACTION_LIMIT_PERIODS),
});

export const earningRuleSchema = z
  .strictObject({
    id: itemId(),
    name: text(),
    description: z.string().nullable().default(null),
    action: text(),
    category: text(),
    is_active: z.boolean().default(true),
    points_to_give: count(),
    customer_facing_label: z.string().optional(),
    call_to_action_url: z.string().refine(isHttpUrl, 'must be an absolute http(s) URL').nullable().default(null),
    created_at: timestamp().default(parseTime),
    /** Purchase rules: points_to_give per whole spend_unit of the order's eligible amount; null: per order. */
    spend_unit: z.number().positive('must be greater than 0').nullable().default(null),
    /** Action rules: how often a member may earn it; absent: once per lifetime. */
    limit: actionLimitSchema.optional(),
  })
  .refine((rule) => rule.spend_unit === null || rule.action === 'purchase', {
    message: 'only purchase rules have a spend_unit',
    path: ['spend_unit'],
  })
  .refine((rule) => !isHistoryAction(rule.action), {
    message: `is the earning history's own action; a rule may not take the names ${HISTORY_ACTIONS.join(', ')}`,
    path: ['action'],
  })
  .refine((rule) => rule.limit === undefined || !isEngineAction(rule.action), {
    message: 'only action rules have a limit: purchase, signup, birthday and referral rules are awarded by the earning engine',
    path: ['limit'],
  })
  .transform((rule) => ({ ...rule, customer_facing_label: rule.customer_facing_label ?? rule.name }));

export const pointsExpirySchema = z.strictObject({ mode: z.enum(['batch', 'inactivity']), days: positiveCount() });

export const earningSettingsSchema = z.strictObject({
  pending_days: count().default(0),
  points_expiry: pointsExpirySchema.nullable().default(null),
  expiry_reminder_days: count().default(30),
  /** customers/create enrols the new platform customer, and an order of a non-member enrols them first. */
  auto_enroll: z.boolean().default(false),
  /** Test orders (`test: true`: Bogus Gateway, test mode) earn too; off, they are recorded and earn nothing. */
  count_test_orders: z.boolean().default(false),
  /** The shop's prices include tax (Shopify's "Include tax in prices"): an estimate takes its lines' tax out. */
  taxes_included: z.boolean().default(false),
});

export const campaignSchema = z
  .strictObject({
    id: itemId(),
    name: text(),
    multiplier: multiplier(),
    starts_at: timestamp(),
    ends_at: timestamp(),
  })
  .refine((campaign) => campaign.starts_at < campaign.ends_at, {
    message: 'must be later than starts_at',
    path: ['ends_at'],
  });

export const vipTierSchema = z.strictObject({
  id: itemId(),
  name: text(),
  description: z.string().default(''),
  threshold_points: count().nullable().default(null),
  threshold_spend: amount().nullable().default(null),
  threshold_orders: count().nullable().default(null),
  points_multiplier: multiplier().default(1),
  position: count(),
  badge_image_url: z.string().refine(isHttpUrl, 'must be an absolute http(s) URL').nullable().default(null),
  badge_color: z.string().regex(HEX_COLOUR, 'must be a hex colour such as #C0C0C0').default('#808080'),
  reward_ids: z.array(itemId()).default([]),
  created_at: timestamp().default(parseTime),
});

export const flexibleConfigSchema = z
  .strictObject({
    min_points: positiveCount(),
    max_points: positiveCount(),
    points_per_unit: positiveCount(),
  })
  .refine((range) => range.min_points <= range.max_points, {
    message: 'must be at least min_points',
    path: ['max_points'],
  });

export const discountType = z.enum(REWARD_KINDS);

export const rewardSchema = z
  .strictObject({
    id: itemId(),
    name: text(),
    description: z.string().nullable().default(null),
    discount_type: discountType.default('fixed'),
    reward_type: z.enum(['standard', 'vip', 'entry']).default('standard'),
    redemption_mode: z.enum(['fixed', 'flexible']).default('fixed'),
    points_cost: count(),
    discount_amount: amount(),
    minimum_spend: amount().default(0),
    is_active: z.boolean().default(true),
    deleted: z.boolean().default(false),
    max_redemptions: positiveCount().nullable().default(null),
    expiry_days: positiveCount().nullable().default(null),
    vip_tier_id: itemId().nullable().default(null),
    flexible_config: flexibleConfigSchema.nullable().default(null),
    /** The platform's product variant a `free_product` reward makes free (required for it, refused for the others). */
    product_variant_id: z.string().regex(NUMERIC_ID, 'must be a numeric product variant id such as "44012345"').nullable().default(null),
    created_at: timestamp().default(parseTime),
  })
  .refine((reward) => reward.discount_type !== 'percentage' || reward.discount_amount <= 100, {
    message: 'a percentage discount must be at most 100',
    path: ['discount_amount'],
  })
  .refine((reward) => reward.discount_type !== 'free_product' || reward.product_variant_id !== null, {
    message: "is required when discount_type is 'free_product'",
    path: ['product_variant_id'],
  })
  .refine((reward) => reward.discount_type === 'free_product' || reward.product_variant_id === null, {
    message: "is only for discount_type 'free_product'",
    path: ['product_variant_id'],
  })
  .refine((reward) => !['free_product', 'store_credit'].includes(reward.discount_type) || reward.discount_amount > 0, {
    message: "must be more than 0 for a free_product (the variant's price) or store_credit reward",
    path: ['discount_amount'],
  })
  .refine((reward) => reward.discount_type !== 'store_credit' || reward.minimum_spend === 0, {
    message: 'a store_credit reward has no code, so no minimum spend',
    path: ['minimum_spend'],
  })
  .refine((reward) => !['free_shipping', 'free_product'].includes(reward.discount_type) || reward.redemption_mode !== 'flexible', {
    message: 'a free_shipping or free_product reward cannot be flexible: its value does not depend on the points spent',
    path: ['redemption_mode'],
  })
  .refine((reward) => reward.redemption_mode !== 'flexible' || reward.flexible_config !== null, {
    message: "is required when redemption_mode is 'flexible'",
    path: ['flexible_config'],
  });

export const platformCustomerSchema = z.strictObject({
  id: z.string().regex(NUMERIC_ID, 'must be a numeric string such as "1001"'),
  email: z
    .string()
    .refine(isEmailAddress, 'must be an email address (internationalised addresses such as josé@exämple.com are accepted)')
    .transform((email) => email.normalize('NFC')),
  first_name: z.string().default(''),
  last_name: z.string().default(''),
  created_at: timestamp().nullable().default(null),
});

export const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/;

/** The domain Shopify gives a shop, which webhooks carry in X-Shopify-Shop-Domain. */
export function defaultShopDomain(shopId: string): string {
  return `${shopId}.myshopify.com`;
}

/** The twin's webhook key when the file names none; never used in the cloud. */
export function defaultWebhookSecret(shopId: string): string {
  return `${shopId}-webhook-secret`;
}

export const platformSchema = z
  .strictObject({
    customers: z.array(platformCustomerSchema).default([]),
    shop_domain: z.string().regex(SHOP_DOMAIN, 'must be a shop domain such as "demo.myshopify.com"').optional(),
    webhook_secret: z.string().min(1, 'must not be empty').optional(),
    /** An app created in the Dev Dashboard: tokens come from the client credentials grant (SHOPIFY-CONTRACT.md). */
    client_id: z.string().min(1, 'must not be empty').optional(),
    client_secret: z.string().min(1, 'must not be empty').optional(),
    /** The app holds `read_all_orders`: reconciliation may read orders older than Shopify's 60 days. */
    read_all_orders: z.boolean().default(false),
  })
  .refine((platform) => (platform.client_id === undefined) === (platform.client_secret === undefined), {
    message: 'client_id and client_secret go together: give both or neither',
    path: ['client_secret'],
  });

export const earningHistorySchema = z
  .strictObject({
    id: itemId(),
    earning_rule_id: itemId().nullable().default(null),
    action: text(),
    points: z.int('must be a whole number'),
    base_points: z.int('must be a whole number').optional(),
    points_multiplier: multiplier().default(1),
    status: z.enum(['pending', 'approved', 'rejected']).default('approved'),
    order_id: z.string().nullable().default(null),
    order_number: z.string().nullable().default(null),
    points_due_at: timestamp().nullable().default(null),
    points_given_at: timestamp().nullable().default(null),
    points_expiry_at: timestamp().nullable().default(null),
    created_at: timestamp().default(parseTime),
  })
  .transform((entry) => ({
    ...entry,
    base_points: entry.base_points ?? Math.round(entry.points / entry.points_multiplier),
  }));

export const rewardHistorySchema = z
  .strictObject({
    id: itemId(),
    reward_id: itemId(),
    reward_name: text(),
    reward_discount_type: discountType,
    points_spent: count(),
    /** null for a `store_credit` entry (no code), required for the others. */
    discount_code: text().nullable(),
    status: z.enum(['active', 'used', 'expired']).default('active'),
    is_refunded: z.boolean().default(false),
    discount_code_redeemed_at: timestamp().nullable().default(null),
    expires_at: timestamp().nullable().default(null),
    redeemed_at: timestamp().default(parseTime),
    /** The Shopify store credit transaction of a `store_credit` entry; refused for the others. */
    store_credit_transaction_id: z.string().min(1, 'must not be empty').optional(),
  })
  .refine((entry) => (entry.reward_discount_type === 'store_credit') === (entry.discount_code === null), {
    message: 'is null for a store_credit entry (no code) and a code for the other kinds',
    path: ['discount_code'],
  })
  .refine((entry) => entry.reward_discount_type === 'store_credit' || entry.store_credit_transaction_id === undefined, {
    message: "is only for reward_discount_type 'store_credit'",
    path: ['store_credit_transaction_id'],
  })
  .refine((entry) => entry.reward_discount_type !== 'store_credit' || entry.status === 'used', {
    message: "a store_credit entry is 'used' from the start",
    path: ['status'],
  });

export const memberSchema = z.strictObject({
  platform_customer_id: z.string().regex(NUMERIC_ID, 'must be a numeric string such as "1001"'),
  current_points: count().default(0),
  lifetime_points: count().default(0),
  redeemed_points: count().default(0),
  excluded: z.boolean().default(false),
  date_of_birth: calendarDate().nullable().default(null),
  anniversary_date: calendarDate().nullable().default(null),
  total_spend: amount().default(0),
  orders_count: count().default(0),
  enrolled_at: timestamp().default(parseTime),
  earning_history: z.array(earningHistorySchema).default([]),
  reward_history: z.array(rewardHistorySchema).default([]),
});

/** The referred friend's reward (POST /v1/referrals): which reward of the catalog, and a referrer's daily cap. */
export const referralSettingsSchema = z.strictObject({
  friend_reward_id: itemId(),
  max_friends_per_day: positiveCount().default(20),
});

/**
 * Marketing integrations the twin connects a shop to (in the cloud the key is in the shop's secret instead):
 * Klaviyo's private API key, `pk_` and its characters (docs/events.md#klaviyo).
 */
export const integrationsSchema = z.strictObject({
  klaviyo: z
    .strictObject({
      private_key: z.string().regex(/^pk_[A-Za-z0-9_-]{4,}$/, 'must be a Klaviyo private API key such as "pk_abc123..."'),
    })
    .optional(),
});

/**
 * What the program's figures take from the shop (docs/configuration.md): `point_value`, the money one point is
 * worth, as a decimal string ("0.01"), for the liability in every mode.
 */
export const analyticsSchema = z.strictObject({
  point_value: z
    .string()
    .regex(/^\d{1,9}(\.\d{1,6})?$/, 'must be a decimal string of money per point such as "0.01" (up to 6 decimals)')
    .nullable()
    .default(null),
});

export const shopFieldsSchema = z.strictObject({
  id: z.string().regex(SHOP_ID, 'must be 1-64 characters from a-z 0-9 -'),
  name: text(),
  loyalty_mode: z.enum(['points', 'store_credit']).default('points'),
  currency: z.string().refine(isCurrency, 'must be an ISO 4217 currency code such as "USD"'),
  referral_base_url: z.string().refine(isHttpUrl, 'must be an absolute http(s) URL'),
  vip_settings: vipSettingsSchema.prefault({}),
  earning_settings: earningSettingsSchema.prefault({}),
  /** Absent or null: the shop gives referred friends nothing (POST /v1/referrals is refused). */
  referral_settings: referralSettingsSchema.nullable().default(null),
  api_keys: z.array(apiKeySchema).default([]),
  earning_rules: z.array(earningRuleSchema).default([]),
  campaigns: z.array(campaignSchema).default([]),
  vip_tiers: z.array(vipTierSchema).default([]),
  rewards: z.array(rewardSchema).default([]),
  platform: platformSchema.prefault({}),
  integrations: integrationsSchema.default({}),
  analytics: analyticsSchema.prefault({}),
  members: z.array(memberSchema).default([]),
});

// The platform defaults depend on the shop id, so they are filled in once the shop is parsed.
export const shopSchema = shopFieldsSchema.transform((shop) => ({
  ...shop,
  platform: {
    ...shop.platform,
    shop_domain: shop.platform.shop_domain ?? defaultShopDomain(shop.id),
    // A Dev Dashboard app signs its webhooks with its client secret.
    webhook_secret: shop.platform.webhook_secret ?? shop.platform.client_secret ?? defaultWebhookSecret(shop.id),
  },
}));

export type ShopShape = z.output<typeof shopSchema>;
