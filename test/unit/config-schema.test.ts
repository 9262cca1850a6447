// The shop configuration file: the bundled demo parses, defaults apply, and every bad file is refused
// with one `<json path>: <message>` line per problem.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ConfigError } from '../../shared/config/config-errors';
import { parseConfig, readConfigFile } from '../../shared/config/schema';

type Fields = Record<string, unknown>;

const DEMO_FILE = resolve(__dirname, '..', '..', 'config', 'demo.json');

const apiKey = (fields: Fields = {}) => ({ name: 'Backend', scope: 'full', key: 'shop_a_full_key', ...fields });
const rule = (fields: Fields = {}) => ({
  id: 'rule-order',
  name: 'Place an order',
  action: 'purchase',
  category: 'purchase',
  points_to_give: 5,
  ...fields,
});
const campaign = (fields: Fields = {}) => ({
  id: 'double',
  name: 'Double points',
  multiplier: 2,
  starts_at: '2025-01-01T00:00:00.000Z',
  ends_at: '2099-01-01T00:00:00.000Z',
  ...fields,
});
const tier = (fields: Fields = {}) => ({ id: 'silver', name: 'Silver', threshold_points: 1000, position: 1, ...fields });
const reward = (fields: Fields = {}) => ({ id: 'five-off', name: '$5 off', points_cost: 500, discount_amount: 5, ...fields });
const flexibleReward = (flexibleConfig: Fields | null) => ({
  id: 'flex',
  name: 'Dollars off',
  points_cost: 100,
  discount_amount: 1,
  redemption_mode: 'flexible',
  flexible_config: flexibleConfig,
});
const customer = (fields: Fields = {}) => ({ id: '1001', email: 'ada@example.com', ...fields });
const earning = (fields: Fields = {}) => ({ id: 'e1', action: 'purchase', points: 50, ...fields });
const redemption = (fields: Fields = {}) => ({
  id: 'h1',
  reward_id: 'five-off',
  reward_name: '$5 off',
  reward_discount_type: 'fixed',
  points_spent: 500,
  discount_code: 'LOYAL-ABC123',
  ...fields,
});
const member = (fields: Fields = {}) => ({ platform_customer_id: '1001', ...fields });
const shop = (fields: Fields = {}) => ({
  id: 'shop-a',
  name: 'Shop A',
  currency: 'USD',
  referral_base_url: 'https://shop-a.example/',
  api_keys: [apiKey()],
  rewards: [reward()],
  platform: { customers: [customer()] },
  ...fields,
});
const configWith = (...shops: Fields[]) => ({ shops });

/** The issue lines of a configuration that must be refused. */
function issuesOf(input: unknown): string[] {
  try {
    parseConfig(input);
  } catch (error) {
    if (error instanceof ConfigError) return error.issues;
    throw error;
  }
  throw new Error('expected the configuration to be refused');
}

describe('the bundled demo configuration', () => {
  it('parses, with both demo shops and their keys', () => {
    // Act
    const config = readConfigFile(DEMO_FILE);

    // Assert
    expect(config.shops.map((s) => s.id)).toEqual(['demo', 'credit-demo']);
    expect(config.shops[0]!.api_keys.map((k) => [k.key, k.scope, k.revoked])).toEqual([
      ['demo_full_key', 'full', false],
      ['demo_read_key', 'read', false],
      ['demo_revoked_key', 'full', true],
    ]);
    expect(config.shops[1]!.loyalty_mode).toBe('store_credit');
  });

  it('leaves customers 1011 and 1012 unenrolled so enrolment can be shown', () => {
    // Act
    const demo = readConfigFile(DEMO_FILE).shops[0]!;

    // Assert
    const enrolled = demo.members.map((m) => m.platform_customer_id);
    const customerIds = demo.platform.customers.map((c) => c.id);
    expect(customerIds).toEqual(expect.arrayContaining(['1011', '1012']));
    expect(enrolled).not.toContain('1011');
    expect(enrolled).not.toContain('1012');
  });
});

describe('defaults', () => {
  it('fill in every optional field of a minimal shop', () => {
    // Arrange
    const input = configWith(
      shop({
        earning_rules: [rule()],
        vip_tiers: [tier()],
        members: [member({ earning_history: [earning()], reward_history: [redemption()] })],
      }),
    );

    // Act
    const [parsed] = parseConfig(input).shops;

    // Assert
    expect(parsed!.loyalty_mode).toBe('points');
    expect(parsed!.vip_settings).toEqual({
      entry_method: 'points',
      entry_methods_extra: [],
      entry_logic: 'OR',
      points_multiplier_mode: null,
    });
    expect(parsed!.api_keys[0]!.revoked).toBe(false);
    expect(parsed!.campaigns).toEqual([]);
    expect(parsed!.earning_rules[0]).toMatchObject({
      description: null,
      is_active: true,
      customer_facing_label: 'Place an order',
      call_to_action_url: null,
    });
    expect(parsed!.vip_tiers[0]).toMatchObject({
      description: '',
      threshold_spend: null,
      threshold_orders: null,
      points_multiplier: 1,
      badge_image_url: null,
      badge_color: '#808080',
      reward_ids: [],
    });
    expect(parsed!.rewards[0]).toMatchObject({
      description: null,
      discount_type: 'fixed',
      reward_type: 'standard',
      redemption_mode: 'fixed',
      minimum_spend: 0,
      is_active: true,
      deleted: false,
      max_redemptions: null,
      expiry_days: null,
      vip_tier_id: null,
      flexible_config: null,
    });
    expect(parsed!.platform.customers[0]).toMatchObject({ first_name: '', last_name: '', created_at: null });
    expect(parsed!.members[0]).toMatchObject({
      current_points: 0,
      lifetime_points: 0,
      redeemed_points: 0,
      excluded: false,
      date_of_birth: null,
      anniversary_date: null,
      total_spend: 0,
      orders_count: 0,
    });
    expect(parsed!.members[0]!.earning_history[0]).toMatchObject({
      earning_rule_id: null,
      base_points: 50,
      points_multiplier: 1,
      status: 'approved',
      order_id: null,
      order_number: null,
      points_due_at: null,
      points_given_at: null,
      points_expiry_at: null,
    });
    expect(parsed!.members[0]!.reward_history[0]).toMatchObject({
      status: 'active',
      is_refunded: false,
      discount_code_redeemed_at: null,
      expires_at: null,
    });
  });

  it('stamp omitted creation times with the moment the file is parsed', () => {
    // Arrange
    const before = new Date().toISOString();

    // Act
    const [parsed] = parseConfig(configWith(shop({ earning_rules: [rule()], members: [member()] }))).shops;

    // Assert
    const after = new Date().toISOString();
    for (const stamp of [parsed!.earning_rules[0]!.created_at, parsed!.members[0]!.enrolled_at]) {
      expect(stamp >= before && stamp <= after).toBe(true);
    }
  });

  it('complete a partial vip_settings object field by field', () => {
    // Act
    const [parsed] = parseConfig(configWith(shop({ vip_settings: { entry_logic: 'AND' } }))).shops;

    // Assert
    expect(parsed!.vip_settings).toEqual({
      entry_method: 'points',
      entry_methods_extra: [],
      entry_logic: 'AND',
      points_multiplier_mode: null,
    });
  });

  it('derive an earning entry base_points from its multiplier when left out', () => {
    // Arrange
    const input = configWith(shop({ members: [member({ earning_history: [earning({ points: 300, points_multiplier: 1.5 })] })] }));

    // Act
    const entry = parseConfig(input).shops[0]!.members[0]!.earning_history[0]!;

    // Assert
    expect(entry.base_points).toBe(200);
  });
});

describe('platform identity', () => {
  it("default the shop domain and the twin's webhook secret from the shop id", () => {
    // Act
    const parsed = parseConfig(configWith(shop())).shops[0]!;

    // Assert
    expect(parsed.platform).toMatchObject({ shop_domain: 'shop-a.myshopify.com', webhook_secret: 'shop-a-webhook-secret' });
  });

  it('keep a given domain and secret, as the demo shop has them', () => {
    // Act
    const demo = readConfigFile(DEMO_FILE).shops[0]!;
    const parsed = parseConfig(
      configWith(shop({ platform: { customers: [customer()], shop_domain: 'a-store.myshopify.com', webhook_secret: 's3cret' } })),
    ).shops[0]!;

    // Assert
    expect(demo.platform).toMatchObject({ shop_domain: 'demo.myshopify.com', webhook_secret: 'demo-webhook-secret' });
    expect(parsed.platform).toMatchObject({ shop_domain: 'a-store.myshopify.com', webhook_secret: 's3cret' });
  });

  it('refuse a domain that is not a myshopify.com domain, and an empty secret', () => {
    // Act
    const issues = issuesOf(configWith(shop({ platform: { shop_domain: 'https://shop-a.example', webhook_secret: '' } })));

    // Assert
    expect(issues).toEqual([
      expect.stringMatching(/^shops\[0\]\.platform\.shop_domain: must be a shop domain such as "demo\.myshopify\.com"/),
      'shops[0].platform.webhook_secret: must not be empty',
    ]);
  });

  it('refuse two shops with one domain, a default one included, since a webhook finds its shop by domain', () => {
    // Arrange
    const second = shop({
      id: 'shop-b',
      api_keys: [apiKey({ key: 'shop_b_full_key' })],
      platform: { customers: [customer()], shop_domain: 'shop-a.myshopify.com' },
    });

    // Act
    const issues = issuesOf(configWith(shop(), second));

    // Assert
    expect(issues).toEqual(["shops[1].platform.shop_domain: duplicate 'shop-a.myshopify.com', already used at shops[0]"]);
  });
});

describe('field formats', () => {
  it('normalise timestamps to UTC with milliseconds', () => {
    // Arrange
    const input = configWith(
      shop({
        campaigns: [campaign({ starts_at: '2025-01-01T02:00:00+02:00', ends_at: '2025-02-01T00:00:00Z' })],
      }),
    );

    // Act
    const parsed = parseConfig(input).shops[0]!.campaigns[0]!;

    // Assert
    expect(parsed.starts_at).toBe('2025-01-01T00:00:00.000Z');
    expect(parsed.ends_at).toBe('2025-02-01T00:00:00.000Z');
  });

  it('refuse a timestamp on a day that does not exist, saying so', () => {
    // Arrange
    const input = configWith(shop({ earning_rules: [rule({ created_at: '2023-02-30T00:00:00Z' })] }));

    // Act
    const issues = issuesOf(input);

    // Assert
    expect(issues).toEqual(['shops[0].earning_rules[0].created_at: 2023-02-30 does not exist (February 2023 has 28 days)']);
  });

  it.each([
    ['without a time zone', '2025-01-01T00:00:00'],
    ['as a bare date', '2025-01-01'],
  ])('refuse a timestamp %s', (_case, value) => {
    // Arrange
    const input = configWith(shop({ earning_rules: [rule({ created_at: value })] }));

    // Act
    const issues = issuesOf(input);

    // Assert
    expect(issues).toEqual([expect.stringMatching(/^shops\[0\]\.earning_rules\[0\]\.created_at: must be an ISO 8601 timestamp/)]);
  });

  it.each([
    ['2023-02-30', '2023-02-30 does not exist (February 2023 has 28 days)'],
    ['2024-02-30', '2024-02-30 does not exist (February 2024 has 29 days)'],
    ['1990-13-01', '1990-13-01 does not exist (months run from 01 to 12)'],
    ['1990-04-31', '1990-04-31 does not exist (April 1990 has 30 days)'],
  ])('refuse the date of birth %s, saying the day does not exist', (value, message) => {
    // Arrange
    const input = configWith(shop({ members: [member({ date_of_birth: value })] }));

    // Act
    const issues = issuesOf(input);

    // Assert
    expect(issues).toEqual([`shops[0].members[0].date_of_birth: ${message}`]);
  });

  it.each(['17/05/1990', '1990-05-17T00:00:00Z'])('refuse the date of birth %s', (value) => {
    // Arrange
    const input = configWith(shop({ members: [member({ date_of_birth: value })] }));

    // Act
    const issues = issuesOf(input);

    // Assert
    expect(issues).toEqual(['shops[0].members[0].date_of_birth: must be an existing calendar date written YYYY-MM-DD']);
  });

  it('accept a leap day as an anniversary date', () => {
    // Act
    const parsed = parseConfig(configWith(shop({ members: [member({ anniversary_date: '2024-02-29' })] })));

    // Assert
    expect(parsed.shops[0]!.members[0]!.anniversary_date).toBe('2024-02-29');
  });

  it.each(['usd', 'US', 'XYZ', 'EURO'])('refuse the currency %s', (currency) => {
    // Act
    const issues = issuesOf(configWith(shop({ currency })));

    // Assert
    expect(issues).toEqual(['shops[0].currency: must be an ISO 4217 currency code such as "USD"']);
  });

  it.each([
    ['id', 'Shop_A', /^shops\[0\]\.id: /],
    ['referral_base_url', 'ftp://shop-a.example/', /^shops\[0\]\.referral_base_url: must be an absolute http\(s\) URL$/],
    ['referral_base_url', '/relative', /^shops\[0\]\.referral_base_url: /],
    ['loyalty_mode', 'cashback', /^shops\[0\]\.loyalty_mode: /],
  ])('refuse a shop whose %s is %s', (field, value, line) => {
    // Act
    const issues = issuesOf(configWith(shop({ [field]: value })));

    // Assert
    expect(issues).toEqual([expect.stringMatching(line)]);
  });

  it('refuse fractional points', () => {
    // Act
    const issues = issuesOf(configWith(shop({ rewards: [reward({ points_cost: 12.5 })] })));

    // Assert
    expect(issues).toEqual(['shops[0].rewards[0].points_cost: must be a whole number']);
  });

  it('refuse a platform customer id that is not numeric', () => {
    // Act
    const issues = issuesOf(configWith(shop({ platform: { customers: [customer({ id: 'ada' })] } })));

    // Assert
    expect(issues).toEqual([expect.stringMatching(/^shops\[0\]\.platform\.customers\[0\]\.id: must be a numeric string/)]);
  });

  it('refuse an unknown scope and a missing key name', () => {
    // Act
    const issues = issuesOf(configWith(shop({ api_keys: [{ scope: 'admin', key: 'shop_a_full_key' }] })));

    // Assert
    expect(issues).toEqual(['shops[0].api_keys[0].name: is required', expect.stringMatching(/^shops\[0\]\.api_keys\[0\]\.scope: /)]);
  });
});

describe('unknown keys', () => {
  it('are refused with the path of the misspelt key', () => {
    // Arrange
    const input = configWith(shop({ api_keys: [{ ...apiKey(), revokd: true }] }));

    // Act
    const issues = issuesOf(input);

    // Assert
    expect(issues).toEqual(['shops[0].api_keys[0].revokd: unknown key']);
  });

  it('are refused at the root too', () => {
    // Act
    const issues = issuesOf({ ...configWith(shop()), version: 2 });

    // Assert
    expect(issues).toEqual(['version: unknown key']);
  });
});

describe('cross-field rules', () => {
  it('refuse two shops with the same id', () => {
    // Act
    const issues = issuesOf(configWith(shop(), shop({ api_keys: [apiKey({ key: 'shop_b_full_key' })] })));

    // Assert
    expect(issues).toEqual(["shops[1].id: duplicate 'shop-a', already used at shops[0]"]);
  });

  it('refuse one API key value in two shops', () => {
    // Act
    const issues = issuesOf(configWith(shop(), shop({ id: 'shop-b' })));

    // Assert
    expect(issues).toEqual(['shops[1].api_keys[0].key: duplicate API key value, already used at shops[0].api_keys[0]']);
  });

  it('refuse an API key shorter than 8 characters', () => {
    // Act
    const issues = issuesOf(configWith(shop({ api_keys: [apiKey({ key: 'short' })] })));

    // Assert
    expect(issues).toEqual(['shops[0].api_keys[0].key: must be at least 8 characters']);
  });

  it.each([
    ['a space', 'demo full key', 'must use only letters, digits, _ and -'],
    ['a Bearer prefix', 'Bearer demo_full_key', 'must use only letters, digits, _ and -'],
    ['a non-ASCII letter', 'démo_full_key', 'must use only letters, digits, _ and -'],
    ['129 characters', 'k'.repeat(129), 'must be at most 128 characters'],
  ])('refuse an API key with %s, which the authorizer would refuse unread', (_, key, message) => {
    // Act
    const issues = issuesOf(configWith(shop({ api_keys: [apiKey({ key })] })));

    // Assert
    expect(issues).toEqual([`shops[0].api_keys[0].key: ${message}`]);
  });

  it.each([
    ['earning_rules', { earning_rules: [rule(), rule()] }, 'shops[0].earning_rules[1].id'],
    ['campaigns', { campaigns: [campaign(), campaign()] }, 'shops[0].campaigns[1].id'],
    ['vip_tiers', { vip_tiers: [tier(), tier({ threshold_points: 2000 })] }, 'shops[0].vip_tiers[1].id'],
    ['rewards', { rewards: [reward(), reward()] }, 'shops[0].rewards[1].id'],
    [
      'platform customers',
      { platform: { customers: [customer(), customer({ email: 'grace@example.com' })] } },
      'shops[0].platform.customers[1].id',
    ],
    ['members', { members: [member(), member()] }, 'shops[0].members[1].platform_customer_id'],
    ['earning history', { members: [member({ earning_history: [earning(), earning()] })] }, 'shops[0].members[0].earning_history[1].id'],
    ['reward history', { members: [member({ reward_history: [redemption(), redemption()] })] }, 'shops[0].members[0].reward_history[1].id'],
  ])('refuse duplicate ids in %s', (_list, fields, path) => {
    // Act
    const issues = issuesOf(configWith(shop(fields)));

    // Assert
    expect(issues).toEqual([expect.stringMatching(new RegExp(`^${escapeRegExp(path)}: duplicate '`))]);
  });

  it.each(['josé@exämple.com', '用户@例子.广告', 'пример@пример.рф', 'x@xn--exmple-cua.com', "o'neil+tag@example.co.uk"])(
    'accept the e-mail address %s (internationalised addresses included)',
    (email) => {
      // Arrange
      const input = configWith(shop({ platform: { customers: [customer({ email })] } }));

      // Act
      const parsed = parseConfig(input);

      // Assert
      expect(parsed.shops[0]!.platform.customers[0]!.email).toBe(email);
    },
  );

  it('store an internationalised address in composed form (NFC), so both ways of typing it are one address', () => {
    // Arrange
    const decomposed = 'jose\u0301@exa\u0308mple.com';

    // Act
    const parsed = parseConfig(configWith(shop({ platform: { customers: [customer({ email: decomposed })] } })));

    // Assert
    expect(parsed.shops[0]!.platform.customers[0]!.email).toBe('josé@exämple.com');
  });

  it.each(['a@b', 'a b@example.com', '.ada@example.com', 'ada..l@example.com', 'ada@-example.com', 'ada@example.c'])(
    'refuse the e-mail address %s',
    (email) => {
      // Arrange
      const input = configWith(shop({ platform: { customers: [customer({ email })] } }));

      // Act
      const issues = issuesOf(input);

      // Assert
      expect(issues).toEqual([expect.stringMatching(/^shops\[0\]\.platform\.customers\[0\]\.email: must be an email address/)]);
    },
  );

  it('refuse two platform customers with one email address', () => {
    // Act
    const issues = issuesOf(
      configWith(shop({ platform: { customers: [customer(), customer({ id: '1002', email: 'ADA@example.com' })] } })),
    );

    // Assert
    expect(issues).toEqual([
      "shops[0].platform.customers[1].email: duplicate 'ada@example.com', already used at shops[0].platform.customers[0]",
    ]);
  });

  it('refuse the primary entry method among the extra ones', () => {
    // Act
    const issues = issuesOf(configWith(shop({ vip_settings: { entry_method: 'points', entry_methods_extra: ['spend', 'points'] } })));

    // Assert
    expect(issues).toEqual(["shops[0].vip_settings.entry_methods_extra[1]: 'points' is already the primary entry_method"]);
  });

  it('refuse an extra entry method listed twice', () => {
    // Act
    const issues = issuesOf(configWith(shop({ vip_settings: { entry_methods_extra: ['orders', 'orders'] } })));

    // Assert
    expect(issues).toEqual(["shops[0].vip_settings.entry_methods_extra[1]: 'orders' is listed twice"]);
  });

  it('refuse a tier without a threshold for the primary entry method', () => {
    // Arrange
    const input = configWith(shop({ vip_settings: { entry_method: 'spend' }, vip_tiers: [tier({ threshold_spend: null })] }));

    // Act
    const issues = issuesOf(input);

    // Assert
    expect(issues).toEqual(["shops[0].vip_tiers[0].threshold_spend: is required because vip_settings.entry_method is 'spend'"]);
  });

  it('refuse a tier that lists an unknown reward', () => {
    // Act
    const issues = issuesOf(configWith(shop({ vip_tiers: [tier({ reward_ids: ['five-off', 'free-ship'] })] })));

    // Assert
    expect(issues).toEqual(["shops[0].vip_tiers[0].reward_ids[1]: no reward with id 'free-ship' in this shop"]);
  });

  it('refuse a reward restricted to an unknown tier', () => {
    // Act
    const issues = issuesOf(configWith(shop({ vip_tiers: [tier()], rewards: [reward({ vip_tier_id: 'gold' })] })));

    // Assert
    expect(issues).toEqual(["shops[0].rewards[0].vip_tier_id: no VIP tier with id 'gold' in this shop"]);
  });

  it('refuse a flexible reward without flexible_config', () => {
    // Act
    const issues = issuesOf(configWith(shop({ rewards: [reward(), flexibleReward(null)] })));

    // Assert
    expect(issues).toEqual(["shops[0].rewards[1].flexible_config: is required when redemption_mode is 'flexible'"]);
  });

  it.each([
    ['min_points above max_points', { min_points: 500, max_points: 100, points_per_unit: 100 }, 'max_points: must be at least min_points'],
    ['min_points of 0', { min_points: 0, max_points: 100, points_per_unit: 100 }, 'min_points: must be a whole number, 1 or more'],
    [
      'points_per_unit of 0',
      { min_points: 100, max_points: 200, points_per_unit: 0 },
      'points_per_unit: must be a whole number, 1 or more',
    ],
    ['fractional points', { min_points: 100.5, max_points: 200, points_per_unit: 100 }, 'min_points: must be a whole number'],
  ])('refuse a flexible range with %s', (_case, flexibleConfig, problem) => {
    // Act
    const issues = issuesOf(configWith(shop({ rewards: [reward(), flexibleReward(flexibleConfig)] })));

    // Assert
    expect(issues).toEqual([`shops[0].rewards[1].flexible_config.${problem}`]);
  });

  it('refuse a member who is not a platform customer', () => {
    // Act
    const issues = issuesOf(configWith(shop({ members: [member({ platform_customer_id: '9999' })] })));

    // Assert
    expect(issues).toEqual(["shops[0].members[0].platform_customer_id: no customer with id '9999' in platform.customers"]);
  });

  it('refuse reward history for an unknown reward', () => {
    // Act
    const issues = issuesOf(configWith(shop({ members: [member({ reward_history: [redemption({ reward_id: 'gone' })] })] })));

    // Assert
    expect(issues).toEqual(["shops[0].members[0].reward_history[0].reward_id: no reward with id 'gone' in this shop"]);
  });

  it('refuse earning history for an unknown rule but accept a manual entry without one', () => {
    // Arrange
    const history = [earning({ id: 'e1', earning_rule_id: 'rule-gone' }), earning({ id: 'e2', earning_rule_id: null })];

    // Act
    const issues = issuesOf(configWith(shop({ members: [member({ earning_history: history })] })));

    // Assert
    expect(issues).toEqual(["shops[0].members[0].earning_history[0].earning_rule_id: no earning rule with id 'rule-gone' in this shop"]);
  });

  it('refuse a campaign that ends before it starts', () => {
    // Arrange
    const window = { starts_at: '2025-02-01T00:00:00Z', ends_at: '2025-02-01T00:00:00.000Z' };

    // Act
    const issues = issuesOf(configWith(shop({ campaigns: [campaign(window)] })));

    // Assert
    expect(issues).toEqual(['shops[0].campaigns[0].ends_at: must be later than starts_at']);
  });
});

describe('the error', () => {
  it('lists every problem under one heading, one line each', () => {
    // Arrange
    const input = configWith(shop({ currency: 'usd', rewards: [reward({ points_cost: -1 })] }));

    // Act
    let error: unknown;
    try {
      parseConfig(input);
    } catch (caught) {
      error = caught;
    }

    // Assert
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toBe(
      [
        'Invalid configuration:',
        'shops[0].currency: must be an ISO 4217 currency code such as "USD"',
        'shops[0].rewards[0].points_cost: must be a whole number, 0 or more',
      ].join('\n'),
    );
  });

  it('names the root when the document is not an object', () => {
    // Act
    const issues = issuesOf([]);

    // Assert
    expect(issues).toEqual([expect.stringMatching(/^\(root\): /)]);
  });
});

describe('reading a file', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'config-schema-'));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('turns a JSON syntax error into a ConfigError naming the file', () => {
    // Arrange
    const file = join(dir, 'broken.json');
    writeFileSync(file, '{ "shops": [ }');

    // Act
    const read = () => readConfigFile(file);

    // Assert
    expect(read).toThrow(ConfigError);
    expect(read).toThrow(`${file}:1:14: (root): not valid JSON: unexpected "}"`);
  });

  it('gives the line and column of a JSON syntax error', () => {
    // Arrange: a comma missing at the end of line 3.
    const file = join(dir, 'comma.json');
    writeFileSync(file, '{\n  "shops": [\n    { "id": "a" }\n    { "id": "b" }\n  ]\n}\n');

    // Act
    const read = () => readConfigFile(file);

    // Assert
    expect(read).toThrow(`${file}:4:5: (root): not valid JSON: unexpected "{"`);
  });

  it.each([
    ['a file cut short', '{ "shops": [', '1:13', 'unexpected end of file'],
    ['a trailing comma', '{ "shops": [],\n}', '2:1', 'unexpected "}"'],
    ['a comment', '{\n  // shops\n  "shops": []\n}', '2:3', 'unexpected "/"'],
    ['a single-quoted string', "{ 'shops': [] }", '1:3', 'unexpected "\'"'],
    ['text after the document', '{ "shops": [] } x', '1:17', 'unexpected "x"'],
  ])('locates %s', (_case, text, position, found) => {
    // Arrange
    const file = join(dir, 'bad.json');
    writeFileSync(file, text);

    // Assert
    expect(() => readConfigFile(file)).toThrow(`${file}:${position}: (root): not valid JSON: ${found}`);
  });

  it('gives the line and column of each problem: the value, the unknown key, the object a required key is missing from', () => {
    // Arrange
    const file = join(dir, 'problems.json');
    const document = JSON.parse(JSON.stringify(configWith(shop({ currency: 'usd' })))) as { shops: Array<Record<string, unknown>> };
    document.shops[0]!.colour = 'blue';
    delete document.shops[0]!.name;
    const text = JSON.stringify(document, null, 2);
    writeFileSync(file, text);
    const at = (needle: string) => {
      const before = text.slice(0, text.indexOf(needle)).split('\n');
      return `${before.length}:${before[before.length - 1]!.length + 1}`;
    };

    // Act
    let issues: string[] = [];
    try {
      readConfigFile(file);
    } catch (error) {
      issues = (error as ConfigError).issues;
    }

    // Assert
    expect(issues).toEqual(
      expect.arrayContaining([
        `${file}:${at('"usd"')}: shops[0].currency: must be an ISO 4217 currency code such as "USD"`,
        `${file}:${at('"colour"')}: shops[0].colour: unknown key`,
        `${file}:${at('{\n      "id"')}: shops[0].name: is required`,
      ]),
    );
  });

  it('turns a missing file into a ConfigError naming the file', () => {
    // Arrange
    const file = join(dir, 'missing.json');

    // Act
    const read = () => readConfigFile(file);

    // Assert
    expect(read).toThrow(ConfigError);
    expect(read).toThrow(`(root): cannot read ${file}`);
  });

  it('validates what it read', () => {
    // Arrange
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify(configWith(shop({ currency: 'XYZ' }))));

    // Act
    const read = () => readConfigFile(file);

    // Assert
    expect(read).toThrow('shops[0].currency: must be an ISO 4217 currency code such as "USD"');
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('earning settings and spend units', () => {
  it('default to approval at once, no expiry, reminders 30 days ahead, and points per order', () => {
    // Act
    const parsed = parseConfig(configWith(shop({ earning_rules: [rule()] }))).shops[0]!;

    // Assert
    expect(parsed.earning_settings).toEqual({
      pending_days: 0,
      points_expiry: null,
      expiry_reminder_days: 30,
      auto_enroll: false,
      count_test_orders: false,
      taxes_included: false,
    });
    expect(parsed.platform.read_all_orders).toBe(false);
    expect(parsed.earning_rules[0]!.spend_unit).toBeNull();
  });

  it('accept a return window, an expiry mode and a spend unit', () => {
    // Act
    const parsed = parseConfig(
      configWith(
        shop({
          earning_settings: { pending_days: 14, points_expiry: { mode: 'batch', days: 365 } },
          earning_rules: [rule({ spend_unit: 0.5 })],
        }),
      ),
    ).shops[0]!;

    // Assert
    expect(parsed.earning_settings).toEqual({
      pending_days: 14,
      points_expiry: { mode: 'batch', days: 365 },
      expiry_reminder_days: 30,
      auto_enroll: false,
      count_test_orders: false,
      taxes_included: false,
    });
    expect(parsed.earning_rules[0]!.spend_unit).toBe(0.5);
  });

  it('refuse negative days, an unknown expiry mode, a zero spend unit and a spend unit on a non-purchase rule', () => {
    // Act
    const issues = issuesOf(
      configWith(
        shop({
          earning_settings: { pending_days: -1, points_expiry: { mode: 'forever', days: 0 } },
          earning_rules: [rule({ spend_unit: 0 }), rule({ id: 'signup', action: 'signup', category: 'signup', spend_unit: 1 })],
        }),
      ),
    );

    // Assert
    expect(issues).toEqual([
      'shops[0].earning_settings.pending_days: must be a whole number, 0 or more',
      expect.stringMatching(/^shops\[0\]\.earning_settings\.points_expiry\.mode: /),
      'shops[0].earning_settings.points_expiry.days: must be a whole number, 1 or more',
      'shops[0].earning_rules[0].spend_unit: must be greater than 0',
      'shops[0].earning_rules[1].spend_unit: only purchase rules have a spend_unit',
    ]);
  });
});

describe('action rules', () => {
  const follow = (fields: Fields = {}) => rule({ id: 'follow', action: 'follow_on_instagram', category: 'social', ...fields });

  it('keep a limit as given, and leave it out when absent (once per lifetime)', () => {
    // Act
    const parsed = parseConfig(
      configWith(
        shop({ earning_rules: [follow({ limit: { times: 3, per: 'week' } }), follow({ id: 'review', action: 'leave_a_review' })] }),
      ),
    ).shops[0]!;

    // Assert
    expect(parsed.earning_rules[0]!.limit).toEqual({ times: 3, per: 'week' });
    expect(parsed.earning_rules[1]).not.toHaveProperty('limit');
  });

  it('refuse a bad limit and a limit on a rule the engine awards, naming each path', () => {
    // Act
    const issues = issuesOf(
      configWith(
        shop({
          earning_rules: [
            follow({ limit: { times: 0, per: 'fortnight' } }),
            follow({ id: 'review', action: 'leave_a_review', limit: { times: 1.5, per: 'day', every: 2 } }),
            rule({ id: 'join', action: 'signup', category: 'signup', limit: { times: 1, per: 'lifetime' } }),
          ],
        }),
      ),
    );

    // Assert
    expect(issues).toEqual([
      'shops[0].earning_rules[0].limit.times: must be a whole number, 1 or more',
      expect.stringMatching(/^shops\[0\]\.earning_rules\[0\]\.limit\.per: .*"lifetime"\|"day"\|"week"\|"month"\|"year"/),
      'shops[0].earning_rules[1].limit.times: must be a whole number',
      'shops[0].earning_rules[1].limit.every: unknown key',
      'shops[0].earning_rules[2].limit: only action rules have a limit: purchase, signup, birthday and referral rules are awarded by the earning engine',
    ]);
  });

  it("refuse a rule named after one of the earning history's own actions, which a request could then write", () => {
    // Act
    const issues = issuesOf(
      configWith(
        shop({ earning_rules: [follow({ action: 'refund' }), follow({ id: 'undo', action: 'reward_refund', is_active: false })] }),
      ),
    );

    // Assert
    expect(issues).toEqual([
      "shops[0].earning_rules[0].action: is the earning history's own action; a rule may not take the names manual_adjustment, refund, expiry, reward_refund",
      "shops[0].earning_rules[1].action: is the earning history's own action; a rule may not take the names manual_adjustment, refund, expiry, reward_refund",
    ]);
  });

  it('refuse two active rules of one action (an inactive one, and the engine actions, may repeat)', () => {
    // Act
    const issues = issuesOf(
      configWith(
        shop({
          earning_rules: [
            follow(),
            follow({ id: 'follow-paused', is_active: false }),
            rule(),
            rule({ id: 'order-2' }),
            follow({ id: 'follow-again' }),
          ],
        }),
      ),
    );

    // Assert
    expect(issues).toEqual([
      "shops[0].earning_rules[4].action: 'follow_on_instagram' is already the action of the active rule at shops[0].earning_rules[0]: one active rule per action",
    ]);
  });
});

describe('referral settings', () => {
  it('are null when absent, and cap a referrer at 20 friends a day by default', () => {
    // Act
    const absent = parseConfig(configWith(shop())).shops[0]!;
    const given = parseConfig(configWith(shop({ referral_settings: { friend_reward_id: 'five-off' } }))).shops[0]!;

    // Assert
    expect(absent.referral_settings).toBeNull();
    expect(given.referral_settings).toEqual({ friend_reward_id: 'five-off', max_friends_per_day: 20 });
  });

  it('refuse a bad cap, an unknown key and a reward that is missing, deleted or flexible, naming each path', () => {
    // Act
    const bad = issuesOf(configWith(shop({ referral_settings: { friend_reward_id: 'five-off', max_friends_per_day: 0, friends: 3 } })));
    const missing = issuesOf(configWith(shop({ referral_settings: { friend_reward_id: 'nope' } })));
    const deleted = issuesOf(
      configWith(shop({ rewards: [reward({ deleted: true })], referral_settings: { friend_reward_id: 'five-off' } })),
    );
    const flexible = issuesOf(
      configWith(
        shop({
          rewards: [flexibleReward({ min_points: 100, max_points: 500, points_per_unit: 100 })],
          referral_settings: { friend_reward_id: 'flex' },
        }),
      ),
    );
    const noReward = issuesOf(configWith(shop({ referral_settings: { max_friends_per_day: 5 } })));

    // Assert
    expect(bad).toEqual([
      'shops[0].referral_settings.max_friends_per_day: must be a whole number, 1 or more',
      'shops[0].referral_settings.friends: unknown key',
    ]);
    expect(missing).toEqual(["shops[0].referral_settings.friend_reward_id: no reward with id 'nope' in this shop"]);
    expect(deleted).toEqual(["shops[0].referral_settings.friend_reward_id: reward 'five-off' is deleted"]);
    expect(flexible).toEqual([
      "shops[0].referral_settings.friend_reward_id: reward 'flex' is flexible: a friend's reward needs a fixed discount",
    ]);
    expect(noReward).toEqual(['shops[0].referral_settings.friend_reward_id: is required']);
  });
});

describe('the reward kinds peers give', () => {
  const ship = reward({ id: 'ship', name: 'Free shipping', discount_type: 'free_shipping', discount_amount: 0 });
  const scarf = reward({
    id: 'scarf',
    name: 'Free Merino scarf',
    discount_type: 'free_product',
    discount_amount: 35,
    product_variant_id: '4401',
  });
  const credit = reward({ id: 'credit', name: '$5.00 store credit', discount_type: 'store_credit', discount_amount: 5 });
  const storeCreditEntry = (fields: Fields = {}) =>
    redemption({ reward_id: 'credit', reward_discount_type: 'store_credit', discount_code: null, status: 'used', ...fields });

  it('takes free_shipping (uncapped or capped), free_product with its variant, and store_credit, with their history entries', () => {
    const config = parseConfig(
      configWith(
        shop({
          rewards: [reward(), ship, { ...ship, id: 'ship-capped', discount_amount: 12.5, minimum_spend: 30 }, scarf, credit],
          members: [
            member({
              reward_history: [storeCreditEntry({ store_credit_transaction_id: 'gid://shopify/StoreCreditAccountCreditTransaction/1' })],
            }),
          ],
        }),
      ),
    );

    const rewards = config.shops[0]!.rewards;
    expect(rewards.map((entry) => [entry.discount_type, entry.product_variant_id])).toEqual([
      ['fixed', null],
      ['free_shipping', null],
      ['free_shipping', null],
      ['free_product', '4401'],
      ['store_credit', null],
    ]);
    expect(config.shops[0]!.members[0]!.reward_history[0]).toMatchObject({ discount_code: null, status: 'used' });
  });

  it('refuses a free_product reward without its variant, a variant on another kind, and a free product of no price', () => {
    const issues = issuesOf(
      configWith(
        shop({
          rewards: [
            { ...scarf, product_variant_id: null },
            reward({ id: 'fixed-variant', product_variant_id: '4401' }),
            { ...scarf, id: 'free-free', discount_amount: 0 },
            { ...scarf, id: 'not-numeric', product_variant_id: 'gid://shopify/ProductVariant/1' },
          ],
        }),
      ),
    );

    expect(issues).toEqual([
      "shops[0].rewards[0].product_variant_id: is required when discount_type is 'free_product'",
      "shops[0].rewards[1].product_variant_id: is only for discount_type 'free_product'",
      "shops[0].rewards[2].discount_amount: must be more than 0 for a free_product (the variant's price) or store_credit reward",
      'shops[0].rewards[3].product_variant_id: must be a numeric product variant id such as "44012345"',
    ]);
  });

  it('refuses a store credit with a minimum spend or of nothing, a flexible free shipping, and store credit as a friend reward', () => {
    const issues = issuesOf(
      configWith(
        shop({
          rewards: [
            { ...credit, minimum_spend: 10 },
            { ...credit, id: 'nothing', discount_amount: 0 },
            {
              ...ship,
              id: 'flex-ship',
              redemption_mode: 'flexible',
              flexible_config: { min_points: 1, max_points: 10, points_per_unit: 1 },
            },
            { ...credit, id: 'friend' },
          ],
          referral_settings: { friend_reward_id: 'friend' },
        }),
      ),
    );

    expect(issues).toEqual([
      'shops[0].rewards[0].minimum_spend: a store_credit reward has no code, so no minimum spend',
      "shops[0].rewards[1].discount_amount: must be more than 0 for a free_product (the variant's price) or store_credit reward",
      'shops[0].rewards[2].redemption_mode: a free_shipping or free_product reward cannot be flexible: its value does not depend on the points spent',
      "shops[0].referral_settings.friend_reward_id: reward 'friend' is store credit: a friend's reward is a code the friend can use before being a customer",
    ]);
  });

  it('refuses a store credit entry with a code or not used, and a code entry without a code or with a transaction', () => {
    const issues = issuesOf(
      configWith(
        shop({
          rewards: [reward(), credit],
          members: [
            member({
              reward_history: [
                storeCreditEntry({ id: 'h1', discount_code: 'LOYAL-X' }),
                storeCreditEntry({ id: 'h2', status: 'active' }),
                redemption({ id: 'h3', discount_code: null }),
                redemption({ id: 'h4', store_credit_transaction_id: 'gid://shopify/StoreCreditAccountCreditTransaction/1' }),
              ],
            }),
          ],
        }),
      ),
    );

    expect(issues).toEqual([
      'shops[0].members[0].reward_history[0].discount_code: is null for a store_credit entry (no code) and a code for the other kinds',
      "shops[0].members[0].reward_history[1].status: a store_credit entry is 'used' from the start",
      'shops[0].members[0].reward_history[2].discount_code: is null for a store_credit entry (no code) and a code for the other kinds',
      "shops[0].members[0].reward_history[3].store_credit_transaction_id: is only for reward_discount_type 'store_credit'",
    ]);
  });
});
