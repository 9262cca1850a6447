// The shop configuration file (CONFIG-FORMAT.md beside the checkout) as zod schemas: shape, defaults and
// cross-references, with every problem reported as one `<json path>: <message>` line.
//
// Defaults the format shows without stating them, chosen here:
//   shop: loyalty_mode "points"; api_keys, earning_rules, campaigns, vip_tiers, rewards, members [];
//         platform { customers: [], shop_domain "<shop id>.myshopify.com",
//         webhook_secret "<shop id>-webhook-secret" (twin only: a well-known key that lets the local platform
//         simulator sign deliveries without configuration; the cloud reads the secret from Secrets Manager) }
//   earning rule: description null, is_active true, customer_facing_label = the rule's name,
//         call_to_action_url null, spend_unit null (purchase rules: points per order)
//   earning_settings: pending_days 0, points_expiry null, expiry_reminder_days 30 (EARNING-CONTRACT.md)
//   VIP tier: description "", threshold_points/threshold_spend/threshold_orders null, points_multiplier 1,
//         badge_image_url null, badge_color "#808080", reward_ids []
//   reward: description null, discount_type "fixed", reward_type "standard", redemption_mode "fixed",
//         minimum_spend 0, expiry_days null (codes never expire)
//   platform customer: first_name "", last_name "", created_at null (creation date not synced)
//   member: total_spend 0, orders_count 0, date_of_birth null, anniversary_date null (the platform
//         account's creation date is used)
//   earning history entry: earning_rule_id null, base_points = round(points / points_multiplier),
//         points_multiplier 1, status "approved", order_id, order_number, points_due_at,
//         points_given_at, points_expiry_at null
//   reward history entry: status "active", is_refunded false, discount_code_redeemed_at null, expires_at null
//   created_at, enrolled_at, redeemed_at: the moment the file is parsed
// Required (no sensible default): shops; shop id, name, currency, referral_base_url; API key name, scope,
// key; earning rule id, name, action, category, points_to_give; campaign id, name, multiplier, starts_at,
// ends_at; tier id, name, position; reward id, name, points_cost, discount_amount; platform customer id,
// email; member platform_customer_id; earning entry id, action, points; reward entry id, reward_id,
// reward_name, reward_discount_type, points_spent, discount_code.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { parseCalendarDate } from '../domain/dates';

type Path = ReadonlyArray<PropertyKey>;

/** A configuration file that cannot be used; `issues` holds one `<path>: <message>` line per problem. */
export class ConfigError extends Error {
  readonly issues: string[];

  constructor(issues: string[]) {
    super(`Invalid configuration:\n${issues.join('\n')}`);
    this.name = 'ConfigError';
    this.issues = issues;
  }
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `shops[0].api_keys[1].scope`, or `(root)` for the document itself. */
function formatPath(path: Path): string {
  let formatted = '';
  for (const segment of path) {
    if (typeof segment === 'number') formatted += `[${segment}]`;
    else if (typeof segment === 'string' && IDENTIFIER.test(segment)) formatted += formatted ? `.${segment}` : segment;
    else formatted += `[${JSON.stringify(String(segment))}]`;
  }
  return formatted || '(root)';
}

// --- field types -------------------------------------------------------------------------------------

const SHOP_ID = /^[a-z0-9-]{1,64}$/;
// Catalog and history ids travel in URL paths and sort keys, so they keep to URL-unreserved characters.
const ITEM_ID = /^[A-Za-z0-9._~-]{1,128}$/;
const NUMERIC_ID = /^\d{1,32}$/;
const CURRENCY = /^[A-Z]{3}$/;
const HEX_COLOUR = /^#(?:[0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$/;
const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d{1,9})?(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)$/;

// NumberFormat accepts any well-formed three-letter code, so the list of currencies Intl knows decides.
const KNOWN_CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

function isCurrency(code: string): boolean {
  if (!CURRENCY.test(code) || !KNOWN_CURRENCIES.has(code)) return false;
  try {
    new Intl.NumberFormat('en', { style: 'currency', currency: code });
    return true;
  } catch {
    return false;
  }
}

function isCalendarDate(text: string): boolean {
  return CALENDAR_DATE.test(text) && parseCalendarDate(text) === text;
}

/** Date.parse rolls 2023-02-30 over into March, so the calendar date is checked on its own. */
function isTimestamp(text: string): boolean {
  const match = TIMESTAMP.exec(text);
  if (!match) return false;
  return parseCalendarDate(`${match[1]}-${match[2]}-${match[3]}`) !== null && !Number.isNaN(Date.parse(text));
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const parseTime = (): string => new Date().toISOString();

const text = () => z.string().min(1, 'must not be empty');
const itemId = () => z.string().regex(ITEM_ID, 'must be 1-128 characters from A-Z a-z 0-9 . _ ~ -');
const count = () => z.int().min(0, 'must be a whole number, 0 or more');
const positiveCount = () => z.int().min(1, 'must be a whole number, 1 or more');
const amount = () => z.number().min(0, 'must not be negative');
const multiplier = () => z.number().positive('must be greater than 0');
const timestamp = () =>
  z
    .string()
    .refine(isTimestamp, 'must be an ISO 8601 timestamp with a time zone, e.g. 2025-01-01T00:00:00.000Z')
    .transform((value) => new Date(value).toISOString());
const calendarDate = () => z.string().refine(isCalendarDate, 'must be an existing calendar date written YYYY-MM-DD');

const entryMethod = z.enum(['points', 'spend', 'orders']);

// --- sections ----------------------------------------------------------------------------------------

const vipSettingsSchema = z.strictObject({
  entry_method: entryMethod.default('points'),
  entry_methods_extra: z.array(entryMethod).default([]),
  entry_logic: z.enum(['AND', 'OR']).default('OR'),
  points_multiplier_mode: z.enum(['purchase', 'all']).nullable().default(null),
});

const apiKeySchema = z.strictObject({
  name: text(),
  scope: z.enum(['full', 'read']),
  key: z.string().min(8, 'must be at least 8 characters'),
  revoked: z.boolean().default(false),
});

const earningRuleSchema = z
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
  })
  .refine((rule) => rule.spend_unit === null || rule.action === 'purchase', {
    message: 'only purchase rules have a spend_unit',
    path: ['spend_unit'],
  })
  .transform((rule) => ({ ...rule, customer_facing_label: rule.customer_facing_label ?? rule.name }));

const pointsExpirySchema = z.strictObject({ mode: z.enum(['batch', 'inactivity']), days: positiveCount() });

const earningSettingsSchema = z.strictObject({
  pending_days: count().default(0),
  points_expiry: pointsExpirySchema.nullable().default(null),
  expiry_reminder_days: count().default(30),
});

const campaignSchema = z
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

const vipTierSchema = z.strictObject({
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

const flexibleConfigSchema = z
  .strictObject({
    min_points: positiveCount(),
    max_points: positiveCount(),
    points_per_unit: positiveCount(),
  })
  .refine((range) => range.min_points <= range.max_points, {
    message: 'must be at least min_points',
    path: ['max_points'],
  });

const discountType = z.enum(['fixed', 'percentage']);

const rewardSchema = z
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
    created_at: timestamp().default(parseTime),
  })
  .refine((reward) => reward.discount_type !== 'percentage' || reward.discount_amount <= 100, {
    message: 'a percentage discount must be at most 100',
    path: ['discount_amount'],
  })
  .refine((reward) => reward.redemption_mode !== 'flexible' || reward.flexible_config !== null, {
    message: "is required when redemption_mode is 'flexible'",
    path: ['flexible_config'],
  });

const platformCustomerSchema = z.strictObject({
  id: z.string().regex(NUMERIC_ID, 'must be a numeric string such as "1001"'),
  email: z.email('must be an email address'),
  first_name: z.string().default(''),
  last_name: z.string().default(''),
  created_at: timestamp().nullable().default(null),
});

const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/;

/** The domain Shopify gives a shop, which webhooks carry in X-Shopify-Shop-Domain. */
export function defaultShopDomain(shopId: string): string {
  return `${shopId}.myshopify.com`;
}

/** The twin's webhook key when the file names none; never used in the cloud. */
export function defaultWebhookSecret(shopId: string): string {
  return `${shopId}-webhook-secret`;
}

const platformSchema = z.strictObject({
  customers: z.array(platformCustomerSchema).default([]),
  shop_domain: z.string().regex(SHOP_DOMAIN, 'must be a shop domain such as "demo.myshopify.com"').optional(),
  webhook_secret: z.string().min(1, 'must not be empty').optional(),
});

const earningHistorySchema = z
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

const rewardHistorySchema = z.strictObject({
  id: itemId(),
  reward_id: itemId(),
  reward_name: text(),
  reward_discount_type: discountType,
  points_spent: count(),
  discount_code: text(),
  status: z.enum(['active', 'used', 'expired']).default('active'),
  is_refunded: z.boolean().default(false),
  discount_code_redeemed_at: timestamp().nullable().default(null),
  expires_at: timestamp().nullable().default(null),
  redeemed_at: timestamp().default(parseTime),
});

const memberSchema = z.strictObject({
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

const shopFieldsSchema = z.strictObject({
  id: z.string().regex(SHOP_ID, 'must be 1-64 characters from a-z 0-9 -'),
  name: text(),
  loyalty_mode: z.enum(['points', 'store_credit']).default('points'),
  currency: z.string().refine(isCurrency, 'must be an ISO 4217 currency code such as "USD"'),
  referral_base_url: z.string().refine(isHttpUrl, 'must be an absolute http(s) URL'),
  vip_settings: vipSettingsSchema.prefault({}),
  earning_settings: earningSettingsSchema.prefault({}),
  api_keys: z.array(apiKeySchema).default([]),
  earning_rules: z.array(earningRuleSchema).default([]),
  campaigns: z.array(campaignSchema).default([]),
  vip_tiers: z.array(vipTierSchema).default([]),
  rewards: z.array(rewardSchema).default([]),
  platform: platformSchema.prefault({}),
  members: z.array(memberSchema).default([]),
});

// The platform defaults depend on the shop id, so they are filled in once the shop is parsed.
const shopSchema = shopFieldsSchema.transform((shop) => ({
  ...shop,
  platform: {
    ...shop.platform,
    shop_domain: shop.platform.shop_domain ?? defaultShopDomain(shop.id),
    webhook_secret: shop.platform.webhook_secret ?? defaultWebhookSecret(shop.id),
  },
}));

type ShopShape = z.output<typeof shopSchema>;

// --- cross-references --------------------------------------------------------------------------------

type Report = (path: Path, message: string) => void;

/** Reports every item whose key was already used earlier in the list; returns the key -> index map. */
function checkUnique<T>(
  items: readonly T[],
  keyOf: (item: T) => string,
  listPath: Path,
  field: string,
  report: Report,
): Map<string, number> {
  const seen = new Map<string, number>();
  items.forEach((item, index) => {
    const key = keyOf(item);
    const first = seen.get(key);
    if (first === undefined) seen.set(key, index);
    else report([...listPath, index, field], `duplicate '${key}', already used at ${formatPath([...listPath, first])}`);
  });
  return seen;
}

function checkVipSettings(shop: ShopShape, at: Path, report: Report): void {
  const { entry_method, entry_methods_extra } = shop.vip_settings;
  const seen = new Set<string>();
  entry_methods_extra.forEach((method, index) => {
    const path = [...at, 'vip_settings', 'entry_methods_extra', index];
    if (method === entry_method) report(path, `'${method}' is already the primary entry_method`);
    else if (seen.has(method)) report(path, `'${method}' is listed twice`);
    seen.add(method);
  });
}

function checkCatalog(shop: ShopShape, at: Path, report: Report): void {
  checkUnique(shop.earning_rules, (rule) => rule.id, [...at, 'earning_rules'], 'id', report);
  checkUnique(shop.campaigns, (campaign) => campaign.id, [...at, 'campaigns'], 'id', report);
  const tierIds = checkUnique(shop.vip_tiers, (tier) => tier.id, [...at, 'vip_tiers'], 'id', report);
  const rewardIds = checkUnique(shop.rewards, (reward) => reward.id, [...at, 'rewards'], 'id', report);

  const method = shop.vip_settings.entry_method;
  shop.vip_tiers.forEach((tier, t) => {
    const tierPath = [...at, 'vip_tiers', t];
    const thresholdField = `threshold_${method}` as const;
    if (tier[thresholdField] === null) {
      report([...tierPath, thresholdField], `is required because vip_settings.entry_method is '${method}'`);
    }
    tier.reward_ids.forEach((rewardId, r) => {
      if (!rewardIds.has(rewardId)) report([...tierPath, 'reward_ids', r], `no reward with id '${rewardId}' in this shop`);
    });
  });

  shop.rewards.forEach((reward, r) => {
    if (reward.vip_tier_id !== null && !tierIds.has(reward.vip_tier_id)) {
      report([...at, 'rewards', r, 'vip_tier_id'], `no VIP tier with id '${reward.vip_tier_id}' in this shop`);
    }
  });
}

function checkPeople(shop: ShopShape, at: Path, report: Report): void {
  const customersPath = [...at, 'platform', 'customers'];
  const customerIds = checkUnique(shop.platform.customers, (customer) => customer.id, customersPath, 'id', report);
  // Customers are found by email as well as by id, so one address must name one customer.
  checkUnique(shop.platform.customers, (customer) => customer.email.toLowerCase(), customersPath, 'email', report);

  const ruleIds = new Set(shop.earning_rules.map((rule) => rule.id));
  const rewardIds = new Set(shop.rewards.map((reward) => reward.id));
  const membersPath = [...at, 'members'];
  checkUnique(shop.members, (member) => member.platform_customer_id, membersPath, 'platform_customer_id', report);

  shop.members.forEach((member, m) => {
    const memberPath = [...membersPath, m];
    if (!customerIds.has(member.platform_customer_id)) {
      report(
        [...memberPath, 'platform_customer_id'],
        `no customer with id '${member.platform_customer_id}' in platform.customers`,
      );
    }
    checkUnique(member.earning_history, (entry) => entry.id, [...memberPath, 'earning_history'], 'id', report);
    member.earning_history.forEach((entry, e) => {
      if (entry.earning_rule_id !== null && !ruleIds.has(entry.earning_rule_id)) {
        report(
          [...memberPath, 'earning_history', e, 'earning_rule_id'],
          `no earning rule with id '${entry.earning_rule_id}' in this shop`,
        );
      }
    });
    checkUnique(member.reward_history, (entry) => entry.id, [...memberPath, 'reward_history'], 'id', report);
    member.reward_history.forEach((entry, h) => {
      if (!rewardIds.has(entry.reward_id)) {
        report([...memberPath, 'reward_history', h, 'reward_id'], `no reward with id '${entry.reward_id}' in this shop`);
      }
    });
  });
}

export const configFileSchema = z
  .strictObject({
    shops: z.array(shopSchema),
  })
  .superRefine((config, ctx) => {
    const report: Report = (path, message) => ctx.addIssue({ code: 'custom', message, path: [...path] });
    checkUnique(config.shops, (shop) => shop.id, ['shops'], 'id', report);
    // A webhook finds its shop by domain alone, so a domain may belong to one shop only.
    config.shops.forEach((shop, s) => {
      const first = config.shops.findIndex((other) => other.platform.shop_domain === shop.platform.shop_domain);
      // Two shops with one id are reported as such; their default domains say nothing more.
      if (first < s && config.shops[first]!.id !== shop.id) {
        report(['shops', s, 'platform', 'shop_domain'], `duplicate '${shop.platform.shop_domain}', already used at shops[${first}]`);
      }
    });

    // Keys are looked up by value alone, so a value may belong to one shop only.
    const keyOwners = new Map<string, Path>();
    config.shops.forEach((shop, s) => {
      const at = ['shops', s];
      shop.api_keys.forEach((apiKey, k) => {
        const path = [...at, 'api_keys', k];
        const owner = keyOwners.get(apiKey.key);
        if (owner) report([...path, 'key'], `duplicate API key value, already used at ${formatPath(owner)}`);
        else keyOwners.set(apiKey.key, path);
      });
      checkVipSettings(shop, at, report);
      checkCatalog(shop, at, report);
      checkPeople(shop, at, report);
    });
  });

export type ConfigFile = z.output<typeof configFileSchema>;
export type ShopConfig = ConfigFile['shops'][number];
export type VipSettings = z.output<typeof vipSettingsSchema>;
export type EarningSettingsConfig = z.output<typeof earningSettingsSchema>;
export type ApiKeyConfig = z.output<typeof apiKeySchema>;
export type EarningRuleConfig = z.output<typeof earningRuleSchema>;
export type CampaignConfig = z.output<typeof campaignSchema>;
export type VipTierConfig = z.output<typeof vipTierSchema>;
export type FlexibleConfig = z.output<typeof flexibleConfigSchema>;
export type RewardConfig = z.output<typeof rewardSchema>;
export type PlatformCustomerConfig = z.output<typeof platformCustomerSchema>;
export type MemberConfig = z.output<typeof memberSchema>;
export type EarningHistoryConfig = z.output<typeof earningHistorySchema>;
export type RewardHistoryConfig = z.output<typeof rewardHistorySchema>;

// --- parsing -----------------------------------------------------------------------------------------

const errorMessages: z.core.$ZodErrorMap = (issue) => {
  if (issue.code !== 'invalid_type') return undefined;
  if (issue.input === undefined) return 'is required';
  if (issue.expected === 'int' && typeof issue.input === 'number') return 'must be a whole number';
  return undefined;
};

function issueLines(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => `${formatPath([...issue.path, key])}: unknown key`)
      : [`${formatPath(issue.path)}: ${issue.message}`],
  );
}

/** Validates a parsed JSON document and applies the defaults; throws ConfigError listing every problem. */
export function parseConfig(input: unknown): ConfigFile {
  const result = configFileSchema.safeParse(input, { error: errorMessages });
  if (!result.success) throw new ConfigError(issueLines(result.error.issues));
  return result.data;
}

/** Reads, parses and validates a configuration file; unreadable files and bad JSON are ConfigErrors too. */
export function readConfigFile(path: string): ConfigFile {
  let source: string;
  try {
    source = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError([`(root): cannot read ${path}: ${(error as Error).message}`]);
  }
  let document: unknown;
  try {
    // Editors on some systems save a byte-order mark, which JSON.parse refuses.
    document = JSON.parse(source.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new ConfigError([`(root): ${path} is not valid JSON: ${(error as Error).message}`]);
  }
  return parseConfig(document);
}
