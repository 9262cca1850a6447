// The checkout extensions as Shopify deploys them: the configuration's three targets (the reductions block named
// as Shopify Plus only), network access, each bundle within Shopify's 64 KB compressed limit (and the raw 64 KB of
// Shopify's build check), Preact, the service URL of src/service-url.ts or the one a build is given, the sources
// type-checked against @shopify/ui-extensions, and every text the code asks for present in locales/.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'smol-toml';
import {
  bundleCheckoutExtension,
  CHECKOUT_EXTENSION_DIR,
  CHECKOUT_SERVICE_URL_FILE,
  CHECKOUT_TARGETS,
  currentServiceUrl,
  SERVICE_URL_FILES,
  serviceUrlModule,
  type AccountBundle,
} from '../../scripts/account-extension-bundle';

const KB = 1024;

interface ExtensionToml {
  api_version: string;
  extensions: Array<{
    handle: string;
    type: string;
    targeting: Array<{ target: string; module: string }>;
    capabilities?: { network_access?: boolean };
  }>;
}

describe('the checkout extensions', () => {
  let bundles: AccountBundle[];
  beforeAll(async () => {
    bundles = await bundleCheckoutExtension();
  }, 60_000);

  it('declare the three targets once, on API 2026-01 or later, with network access, the Plus-only one named as such', () => {
    const source = readFileSync(join(CHECKOUT_EXTENSION_DIR, 'shopify.extension.toml'), 'utf8');
    const toml = parse(source) as unknown as ExtensionToml;
    expect(toml.api_version >= '2026-01').toBe(true);
    const declared = toml.extensions.flatMap((extension) =>
      extension.targeting.map((targeting) => ({ handle: extension.handle, target: targeting.target, module: targeting.module })),
    );
    expect(declared).toEqual(CHECKOUT_TARGETS.map(({ handle, target, module }) => ({ handle, target, module: `./${module}` })));
    expect(declared.map((entry) => entry.target)).toEqual([
      'purchase.checkout.reductions.render-after',
      'purchase.thank-you.block.render',
      'customer-account.order-status.block.render',
    ]);
    for (const extension of toml.extensions) {
      expect(extension.type).toBe('ui_extension');
      expect(extension.capabilities?.network_access).toBe(true);
    }
    // The comment right above the reductions target says it is Shopify Plus only.
    expect(source).toMatch(/# Shopify Plus only[^\n]*\ntarget = "purchase\.checkout\.reductions\.render-after"/);
    for (const { module } of CHECKOUT_TARGETS) expect(existsSync(join(CHECKOUT_EXTENSION_DIR, module))).toBe(true);
  });

  it("bundle each target within Shopify's 64 KB compressed limit and the build's raw 64 KB", () => {
    expect(bundles.map((bundle) => bundle.target)).toEqual(CHECKOUT_TARGETS.map((entry) => entry.target));
    for (const bundle of bundles) {
      expect(bundle.limitBytes).toBe(64 * KB);
      expect({ target: bundle.target, compressed: bundle.gzipBytes <= 64 * KB, raw: bundle.bytes <= 64 * KB }).toEqual({
        target: bundle.target,
        compressed: true,
        raw: true,
      });
    }
    console.log(bundles.map((bundle) => `${bundle.target}: ${bundle.bytes} B minified, ${bundle.gzipBytes} B gzip`).join('\n'));
  });

  it('bundle Preact, no React, nothing left to import at run time, and a default export for the host to call', () => {
    for (const bundle of bundles) {
      expect(bundle.code).not.toMatch(/\bimport\s*(\{|\*|["'])|\bimport\(|\brequire\(/);
      expect(bundle.code).toMatch(/export\s*\{[^}]*as default\s*\}/);
      expect(bundle.code).not.toMatch(/react-dom|__SECRET_INTERNALS|react\.element/);
    }
  });

  it('call the service URL of src/service-url.ts (written by --stack with the other extensions), or the one a build is given', async () => {
    expect(SERVICE_URL_FILES).toContain(CHECKOUT_SERVICE_URL_FILE);
    const committed = await currentServiceUrl(CHECKOUT_SERVICE_URL_FILE);
    expect(readFileSync(CHECKOUT_SERVICE_URL_FILE, 'utf8')).toBe(serviceUrlModule(committed));
    for (const bundle of bundles) expect(bundle.code).toContain(committed);
    const built = await bundleCheckoutExtension({ serviceUrl: 'https://abc.execute-api.eu-west-1.amazonaws.com/prod/' });
    for (const bundle of built) {
      expect(bundle.code).toContain('https://abc.execute-api.eu-west-1.amazonaws.com/prod');
      expect(bundle.code).not.toContain(committed);
    }
  });

  it('ask only for texts the default locale has, every error kind included', () => {
    const locale = JSON.parse(readFileSync(join(CHECKOUT_EXTENSION_DIR, 'locales', 'en.default.json'), 'utf8')) as Record<string, unknown>;
    const has = (key: string) =>
      key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], locale) !== undefined;
    const sources = readdirSync(join(CHECKOUT_EXTENSION_DIR, 'src'))
      .filter((file) => /\.tsx?$/.test(file))
      .map((file) => readFileSync(join(CHECKOUT_EXTENSION_DIR, 'src', file), 'utf8'))
      .join('\n');
    const asked = [...sources.matchAll(/'([a-z]+(?:\.[A-Za-z_]+)+)'/g)]
      .map((match) => match[1]!)
      .filter((key) => key.split('.')[0]! in locale);
    expect(asked.length).toBeGreaterThan(30);
    expect(asked.filter((key) => !has(key))).toEqual([]);
    const kinds = /export type ShopperErrorKind =([^;]+);/.exec(
      readFileSync(join(CHECKOUT_EXTENSION_DIR, 'src', 'checkout-api.ts'), 'utf8'),
    )![1]!;
    for (const [, kind] of kinds.matchAll(/'([a-z_]+)'/g)) expect({ kind, has: has(`error.${kind}`) }).toEqual({ kind, has: true });
  });

  it('type-check against the published extension types (tsc -p on the extension)', async () => {
    const tsc = join(require.resolve('typescript'), '..', '..', 'bin', 'tsc');
    const result = await promisify(execFile)(process.execPath, [tsc, '-p', CHECKOUT_EXTENSION_DIR], { cwd: CHECKOUT_EXTENSION_DIR }).then(
      () => ({ code: 0, output: '' }),
      (error: { code: number; stdout: string }) => ({ code: error.code, output: error.stdout }),
    );
    expect(result).toEqual({ code: 0, output: '' });
  }, 120_000);
});
