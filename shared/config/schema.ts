// The shop configuration file (docs/contract/CONFIG-FORMAT.md) as zod schemas: the whole file, its parsing and
// error report (one `<json path>: <message>` line per problem); the sections are in the modules beside it.
//
// Defaults the format shows without stating them, chosen here:
//   shop: loyalty_mode "points"; api_keys, earning_rules, campaigns, vip_tiers, rewards, members [];
//         platform { customers: [], shop_domain "<shop id>.myshopify.com",
//         webhook_secret "<shop id>-webhook-secret" (twin only: a well-known key that lets the local platform
//         simulator sign deliveries without configuration; the cloud reads the secret from Secrets Manager) }
//   earning rule: description null, is_active true, customer_facing_label = the rule's name,
//         call_to_action_url null, spend_unit null (purchase rules: points per order), limit absent
//         (action rules: once per lifetime)
//   referral_settings: absent (no reward for referred friends); max_friends_per_day 20
//   earning_settings: pending_days 0, points_expiry null, expiry_reminder_days 30 (EARNING-CONTRACT.md)
//   VIP tier: description "", threshold_points/threshold_spend/threshold_orders null, points_multiplier 1,
//         badge_image_url null, badge_color "#808080", reward_ids []
//   reward: description null, discount_type "fixed", reward_type "standard", redemption_mode "fixed",
//         minimum_spend 0, expiry_days null (codes never expire), product_variant_id null (required for
//         discount_type "free_product", refused for the other kinds)
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
// reward_name, reward_discount_type, points_spent, discount_code (null for a "store_credit" entry, which is "used").
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ConfigError, formatPath, type Path } from './config-errors';
import { jsonLocator, positionAt, syntaxError } from './json-positions';
import { memberSchema, platformCustomerSchema, shopSchema } from './shop-schema';
import { checkCatalog, checkPeople, checkUnique, checkVipSettings, type Report } from './cross-references';

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
export type PlatformCustomerConfig = z.output<typeof platformCustomerSchema>;
export type MemberConfig = z.output<typeof memberSchema>;

// --- parsing -----------------------------------------------------------------------------------------

const errorMessages: z.core.$ZodErrorMap = (issue) => {
  if (issue.code !== 'invalid_type') return undefined;
  if (issue.input === undefined) return 'is required';
  if (issue.expected === 'int' && typeof issue.input === 'number') return 'must be a whole number';
  return undefined;
};

/** Where a problem is in the file, as a `FILE:LINE:COLUMN: ` prefix; empty for a document that is no file. */
type Locate = (path: Path, atKey: boolean) => string;

function issueLines(issues: readonly z.core.$ZodIssue[], locate: Locate = () => ''): string[] {
  return issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => `${locate([...issue.path, key], true)}${formatPath([...issue.path, key])}: unknown key`)
      : [`${locate(issue.path, false)}${formatPath(issue.path)}: ${issue.message}`],
  );
}

/**
 * Validates a parsed JSON document and applies the defaults; throws ConfigError listing every problem.
 * With `locate`, each problem starts with where it is in the file.
 */
export function parseConfig(input: unknown, locate?: Locate): ConfigFile {
  const result = configFileSchema.safeParse(input, { error: errorMessages });
  if (!result.success) throw new ConfigError(issueLines(result.error.issues, locate));
  return result.data;
}

/**
 * Reads, parses and validates a configuration file; unreadable files and bad JSON are ConfigErrors too.
 * Every problem is located as `FILE:LINE:COLUMN:` (editors and terminals jump there): a syntax error where
 * the parser stopped, a wrong value where it is, a missing key at the object that lacks it.
 */
export function readConfigFile(path: string): ConfigFile {
  let source: string;
  try {
    source = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError([`(root): cannot read ${path}: ${(error as Error).message}`]);
  }
  let document: unknown;
  // Editors on some systems save a byte-order mark, which JSON.parse refuses.
  const text = source.replace(/^\uFEFF/, '');
  try {
    document = JSON.parse(text);
  } catch {
    const { offset, message } = syntaxError(text);
    const { line, column } = positionAt(text, offset);
    throw new ConfigError([`${path}:${line}:${column}: (root): not valid JSON: ${message}`]);
  }
  const locator = jsonLocator(text);
  return parseConfig(document, (at, atKey) => {
    const { line, column } = locator(at, atKey);
    return `${path}:${line}:${column}: `;
  });
}
