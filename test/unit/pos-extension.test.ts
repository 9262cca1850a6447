// The POS extension as Shopify deploys it: its configuration (API 2026-01 or later, the home tile and modal, the
// customer details block, menu item and action), each target's bundle within Shopify's 64 KB, Preact in place of
// React, every text it asks for present in locales/, the one service URL written beside the other extensions', and
// its calls to the staff routes read down to what staff see. In a real Chromium against the twin's POS page:
// test/e2e/pos-browser.test.ts.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { createStaffApi, StaffApiError } from '../../infra/shopify-app/extensions/loyalty-pos/src/staff-api';
import {
  bundlePosExtension,
  currentServiceUrl,
  POS_EXTENSION_DIR,
  POS_SERVICE_URL_FILE,
  POS_TARGETS,
  SERVICE_URL_FILE,
  SERVICE_URL_FILES,
  type AccountBundle,
} from '../../scripts/account-extension-bundle';

const KB = 1024;

interface ExtensionToml {
  api_version: string;
  extensions: Array<{ handle: string; type: string; targeting: Array<{ target: string; module: string }>; capabilities?: unknown }>;
}

describe('the POS extension', () => {
  let bundles: AccountBundle[];
  beforeAll(async () => {
    bundles = await bundlePosExtension();
  }, 60_000);

  it('declares the home tile and modal and the customer details block, menu item and action on API 2026-01 or later', () => {
    const toml = parse(readFileSync(join(POS_EXTENSION_DIR, 'shopify.extension.toml'), 'utf8')) as unknown as ExtensionToml;
    expect(toml.api_version >= '2026-01').toBe(true);
    expect(toml.api_version).toMatch(/^\d{4}-(01|04|07|10)$/);
    const declared = toml.extensions.flatMap((extension) =>
      extension.targeting.map((targeting) => ({
        handle: extension.handle,
        type: extension.type,
        target: targeting.target,
        module: targeting.module,
      })),
    );
    expect(declared).toEqual(
      POS_TARGETS.map(({ handle, target, module }) => ({ handle, type: 'ui_extension', target, module: `./${module}` })),
    );
    expect(declared.map((entry) => entry.target)).toEqual([
      'pos.home.tile.render',
      'pos.home.modal.render',
      'pos.customer-details.block.render',
      'pos.customer-details.action.menu-item.render',
      'pos.customer-details.action.render',
    ]);
  });

  it("bundles each target within Shopify's 64 KB, Preact without React, nothing imported at run time", () => {
    expect(bundles).toHaveLength(5);
    for (const bundle of bundles) {
      expect({ target: bundle.target, gzip: bundle.gzipBytes <= 64 * KB, raw: bundle.bytes <= 64 * KB }).toEqual({
        target: bundle.target,
        gzip: true,
        raw: true,
      });
      expect(bundle.limitBytes).toBe(64 * KB);
      expect(bundle.code).not.toMatch(/\bimport\s*(\{|\*|["'])|\bimport\(|\brequire\(/);
      expect(bundle.code).toMatch(/export\s*\{[^}]*as default\s*\}/);
      expect(bundle.code).not.toMatch(/react-dom|__SECRET_INTERNALS/);
    }
    console.log(bundles.map((bundle) => `${bundle.target}: ${bundle.bytes} B minified, ${bundle.gzipBytes} B gzip`).join('\n'));
  });

  it('calls the same service as the other extensions (one --stack writes every file)', async () => {
    expect(SERVICE_URL_FILES).toContain(POS_SERVICE_URL_FILE);
    const url = await currentServiceUrl(POS_SERVICE_URL_FILE);
    expect(url).toBe(await currentServiceUrl(SERVICE_URL_FILE));
    const modal = bundles.find((bundle) => bundle.target === 'pos.home.modal.render')!;
    expect(modal.code).toContain(url);
    expect(modal.code).toContain('/admin/api');
  });

  it('asks only for texts the default locale has, and the locale has no text nobody asks for', () => {
    const locale = JSON.parse(readFileSync(join(POS_EXTENSION_DIR, 'locales', 'en.default.json'), 'utf8')) as Record<string, unknown>;
    const leaves = (node: unknown, prefix: string): string[] =>
      node !== null && typeof node === 'object' && !('other' in node)
        ? Object.entries(node).flatMap(([key, value]) => leaves(value, prefix ? `${prefix}.${key}` : key))
        : [prefix];
    const keys = new Set(leaves(locale, ''));
    const sources = readdirSync(join(POS_EXTENSION_DIR, 'src'))
      .filter((file) => /\.tsx?$/.test(file))
      .map((file) => readFileSync(join(POS_EXTENSION_DIR, 'src', file), 'utf8'))
      .join('\n');
    const asked = new Set([...sources.matchAll(/\bt\(\s*'([A-Za-z.]+)'/g)].map((match) => match[1]!));
    for (const ternary of sources.matchAll(/'((?:codes|adjust|history)\.[A-Za-z.]+)'/g)) asked.add(ternary[1]!);
    // history.action.<action>: every action the earning history names.
    for (const key of keys) if (key.startsWith('history.action.')) asked.add(key);
    for (const key of ['noPermission', 'unavailable']) asked.add(key);
    expect([...asked].filter((key) => !keys.has(key))).toEqual([]);
    expect([...keys].filter((key) => !asked.has(key))).toEqual([]);
  });
});

describe("the POS extension's calls", () => {
  type Call = { url: string; method: string; headers: Record<string, string>; body?: string };
  const recorder = (answers: Array<{ status: number; body: unknown }>, token = 'staff-token') => {
    const calls: Call[] = [];
    const api = createStaffApi({
      serviceUrl: 'https://api.example.test/prod',
      token: async () => token,
      fetch: async (url, init) => {
        calls.push({ url, ...init });
        const answer = answers.shift() ?? { status: 500, body: {} };
        return { status: answer.status, ok: answer.status < 300, json: async () => answer.body };
      },
    });
    return { api, calls };
  };
  const customer = (id: string, points: number, extra: Record<string, unknown> = {}) => ({
    type: 'customer',
    id,
    attributes: {
      email: `${id}@example.com`,
      first_name: 'Ada',
      last_name: 'Lovelace',
      current_points: points,
      loyalty_status: 'member',
      vip_tier: null,
      ...extra,
    },
  });

  it("sends POS's session token as the bearer to the staff routes and reads the member", async () => {
    const { api, calls } = recorder([{ status: 200, body: { data: customer('1001', 1250, { vip_tier: { id: 'gold', name: 'Gold' } }) } }]);
    expect(await api.member('1001')).toEqual({
      id: '1001',
      name: 'Ada Lovelace',
      email: '1001@example.com',
      currentPoints: 1250,
      tier: { id: 'gold', name: 'Gold' },
      excluded: false,
    });
    expect(calls).toEqual([
      { url: 'https://api.example.test/prod/admin/api/v1/customers/1001', method: 'GET', headers: { Authorization: 'Bearer staff-token' } },
    ]);
  });

  it('searches by e-mail, by name and by id on the routes that find each', async () => {
    const { api, calls } = recorder([
      { status: 200, body: { data: [customer('1001', 10)] } },
      { status: 200, body: { data: [customer('1002', 20)] } },
      { status: 200, body: { data: customer('1003', 30) } },
    ]);
    expect((await api.search('ada@')).map((member) => member.id)).toEqual(['1001']);
    expect((await api.search(' love ')).map((member) => member.id)).toEqual(['1002']);
    expect((await api.search('1003')).map((member) => member.id)).toEqual(['1003']);
    expect(calls.map((call) => call.url.replace('https://api.example.test/prod/admin/api', ''))).toEqual([
      '/v1/customers?filter[email]=ada%40&page[size]=10',
      '/members?filter[name]=love&page[size]=10',
      '/v1/customers/1003',
    ]);
  });

  it('redeems with an Idempotency-Key and the chosen points of a flexible reward; a store credit has no code', async () => {
    const { api, calls } = recorder([
      {
        status: 201,
        body: {
          data: {
            id: 'r1',
            attributes: { reward_name: '$5 off', reward_discount_type: 'fixed', points_spent: 500, discount_code: 'LOY-AB12' },
          },
        },
      },
      {
        status: 201,
        body: {
          data: {
            id: 'r2',
            attributes: { reward_name: '$3 credit', reward_discount_type: 'store_credit', points_spent: 300, discount_code: null },
          },
        },
      },
    ]);
    expect(await api.redeem('five-off', '1001')).toEqual({
      id: 'r1',
      rewardName: '$5 off',
      discountType: 'fixed',
      pointsSpent: 500,
      code: 'LOY-AB12',
    });
    expect((await api.redeem('credit', '1001', 300)).code).toBeNull();
    expect(calls.map((call) => JSON.parse(call.body!))).toEqual([
      { customer_identifier: '1001' },
      { customer_identifier: '1001', points: 300 },
    ]);
    expect(calls[0]!.headers['Idempotency-Key']).toMatch(/^pos-/);
    expect(calls[0]!.headers['Idempotency-Key']).not.toBe(calls[1]!.headers['Idempotency-Key']);
    expect(calls[0]!.url).toBe('https://api.example.test/prod/admin/api/v1/rewards/five-off/purchase');
  });

  it('undoes through the refund route and adjusts with the reason as the note', async () => {
    const { api, calls } = recorder([
      { status: 200, body: { data: {} } },
      { status: 200, body: { data: { attributes: { current_points: 1300 } } } },
    ]);
    await api.undo('1001', 'r1');
    expect(await api.adjust('1001', 50, 'Birthday in store')).toBe(1300);
    expect(calls.map((call) => [call.method, call.url.replace('https://api.example.test/prod/admin/api', ''), call.body])).toEqual([
      ['POST', '/v1/customers/1001/reward-history/r1/refund', '{}'],
      ['POST', '/v1/customers/1001/points', JSON.stringify({ adjustment: 50, note: 'Birthday in store' })],
    ]);
  });

  it("says the service's own detail for a refusal, not a member for a 404, and asks for permission without a token", async () => {
    const { api } = recorder([
      { status: 422, body: { errors: [{ detail: 'Customer has 10 points but this reward costs 500' }] } },
      { status: 404, body: { errors: [{ detail: "Customer '9' not found" }] } },
      { status: 503, body: {} },
    ]);
    await expect(api.redeem('five-off', '1001')).rejects.toMatchObject({
      kind: 'refused',
      message: 'Customer has 10 points but this reward costs 500',
    });
    expect(await api.member('9')).toBeNull();
    await expect(api.program()).rejects.toMatchObject({ kind: 'unavailable' });
    const denied = recorder([], '');
    await expect(denied.api.member('1001')).rejects.toBeInstanceOf(StaffApiError);
    await expect(denied.api.member('1001')).rejects.toMatchObject({ kind: 'no-permission' });
    expect(denied.calls).toEqual([]);
  });
});
