// The admin block on Shopify's customer page as Shopify deploys it: its configuration (API 2026-01 or
// later, the customer-details block target), its bundle within Shopify's 64 KB, Preact in place of React,
// every text it asks for present in locales/, the one service URL written beside the account extension's,
// and its one call read down to what it shows (member, not a member, unreachable). In a real Chromium
// against the twin's /admin/api: test/e2e/admin-block-browser.test.ts.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { createMemberLookup, memberPageHref } from '../../infra/shopify-app/extensions/loyalty-admin/src/member-api';
import {
  ADMIN_EXTENSION_DIR,
  ADMIN_SERVICE_URL_FILE,
  ADMIN_TARGETS,
  bundleAdminExtension,
  currentServiceUrl,
  SERVICE_URL_FILE,
  type AccountBundle,
} from '../../scripts/account-extension-bundle';

const KB = 1024;

interface ExtensionToml {
  api_version: string;
  extensions: Array<{ handle: string; type: string; targeting: Array<{ target: string; module: string }> }>;
}

describe('the admin block', () => {
  let bundles: AccountBundle[];
  beforeAll(async () => {
    bundles = await bundleAdminExtension();
  }, 60_000);

  it('declares the customer-details block on API 2026-01 or later', () => {
    const toml = parse(readFileSync(join(ADMIN_EXTENSION_DIR, 'shopify.extension.toml'), 'utf8')) as unknown as ExtensionToml;
    expect(toml.api_version >= '2026-01').toBe(true);
    const declared = toml.extensions.flatMap((extension) =>
      extension.targeting.map((targeting) => ({
        handle: extension.handle,
        type: extension.type,
        target: targeting.target,
        module: targeting.module,
      })),
    );
    expect(declared).toEqual(
      ADMIN_TARGETS.map(({ handle, target, module }) => ({ handle, type: 'ui_extension', target, module: `./${module}` })),
    );
  });

  it("bundles within Shopify's 64 KB, Preact without React, nothing imported at run time", () => {
    expect(bundles).toHaveLength(1);
    const [bundle] = bundles;
    expect(bundle!.gzipBytes).toBeLessThanOrEqual(64 * KB);
    expect(bundle!.bytes).toBeLessThanOrEqual(64 * KB);
    expect(bundle!.code).not.toMatch(/\bimport\s*(\{|\*|["'])|\bimport\(|\brequire\(/);
    expect(bundle!.code).toMatch(/export\s*\{[^}]*as default\s*\}/);
    expect(bundle!.code).not.toMatch(/react-dom|__SECRET_INTERNALS/);
    console.log(`${bundle!.target}: ${bundle!.bytes} B minified, ${bundle!.gzipBytes} B gzip`);
  });

  it('calls the same service as the account extension (one --stack writes both files)', async () => {
    const url = await currentServiceUrl(ADMIN_SERVICE_URL_FILE);
    expect(url).toBe(await currentServiceUrl(SERVICE_URL_FILE));
    expect(bundles[0]!.code).toContain(`/admin/api/v1/customers/`);
    expect(bundles[0]!.code).toContain(url);
  });

  it('asks only for texts the default locale has, and the locale has no text nobody asks for', () => {
    const locale = JSON.parse(readFileSync(join(ADMIN_EXTENSION_DIR, 'locales', 'en.default.json'), 'utf8')) as Record<string, unknown>;
    const sources = readdirSync(join(ADMIN_EXTENSION_DIR, 'src'))
      .filter((file) => file.endsWith('.tsx'))
      .map((file) => readFileSync(join(ADMIN_EXTENSION_DIR, 'src', file), 'utf8'))
      .join('\n');
    const asked = new Set([...sources.matchAll(/\bt\('([A-Za-z.]+)'/g)].map((match) => match[1]!));
    for (const ternary of sources.matchAll(/'(notMember|unavailable)'/g)) asked.add(ternary[1]!);
    expect([...asked].filter((key) => !(key in locale))).toEqual([]);
    expect(Object.keys(locale).filter((key) => !asked.has(key))).toEqual([]);
  });
});

describe("the admin block's call", () => {
  const answer = (status: number, body: unknown) => async () => ({ status, ok: status < 300, json: async () => body });

  it('reads the member from GET /admin/api/v1/customers/{id}: balance, tier, excluded', async () => {
    const urls: string[] = [];
    const lookup = createMemberLookup({
      serviceUrl: 'https://api.example.test/prod',
      fetch: async (url) => {
        urls.push(url);
        return answer(200, {
          data: {
            type: 'customer',
            id: '1001',
            attributes: { current_points: 1240, loyalty_status: 'excluded', vip_tier: { id: 'gold', name: 'Gold' } },
          },
        })();
      },
    });
    expect(await lookup.member('1001')).toEqual({ kind: 'member', currentPoints: 1240, excluded: true, tier: 'Gold' });
    expect(urls).toEqual(['https://api.example.test/prod/admin/api/v1/customers/1001']);
  });

  it('says "not a member" for a 404 and "unavailable" for anything else that is not a customer', async () => {
    const lookup = (fetch: Parameters<typeof createMemberLookup>[0]['fetch']) =>
      createMemberLookup({ serviceUrl: 'https://x.test', fetch });
    expect(await lookup(answer(404, { errors: [] })).member('7')).toEqual({ kind: 'not-member' });
    expect(await lookup(answer(401, { errors: [] })).member('7')).toEqual({ kind: 'unavailable' });
    expect(await lookup(answer(500, {})).member('7')).toEqual({ kind: 'unavailable' });
    expect(await lookup(answer(200, { data: null })).member('7')).toEqual({ kind: 'unavailable' });
    expect(await lookup(async () => Promise.reject(new Error('offline'))).member('7')).toEqual({ kind: 'unavailable' });
    const member = await lookup(
      answer(200, { data: { attributes: { current_points: 0, loyalty_status: 'member', vip_tier: null } } }),
    ).member('7');
    expect(member).toEqual({ kind: 'member', currentPoints: 0, excluded: false, tier: null });
  });

  it("links to the member in the app's home", () => {
    expect(memberPageHref('1001')).toBe('app:?customer=1001');
    expect(memberPageHref('a&b')).toBe('app:?customer=a%26b');
  });
});
