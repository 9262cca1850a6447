// The customer account extensions of infra/shopify-app/extensions/loyalty-account bundled as Shopify's
// CLI bundles them for `shopify app deploy`: one esbuild bundle per target, Preact for React, minified.
// Used to measure them against Shopify's limits (test/unit/account-extension-bundle.test.ts, the bench)
// and by the browser test, which loads the page's bundle in its stand-in host.
import type { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { build, type Plugin } from 'esbuild';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { stackOutputs } from '../infra/cli/targets';

export const EXTENSION_DIR = resolve(__dirname, '..', 'infra', 'shopify-app', 'extensions', 'loyalty-account');
export const SERVICE_URL_FILE = join(EXTENSION_DIR, 'src', 'service-url.ts');
/** The admin block on Shopify's customer page: its own extension, the same service URL written beside it. */
export const ADMIN_EXTENSION_DIR = resolve(__dirname, '..', 'infra', 'shopify-app', 'extensions', 'loyalty-admin');
export const ADMIN_SERVICE_URL_FILE = join(ADMIN_EXTENSION_DIR, 'src', 'service-url.ts');
// --- The checkout extensions (infra/shopify-app/extensions/loyalty-checkout): their directory, service URL and targets.
/** The checkout, thank-you and order status blocks: one extension directory, the same service URL written beside them. */
export const CHECKOUT_EXTENSION_DIR = resolve(__dirname, '..', 'infra', 'shopify-app', 'extensions', 'loyalty-checkout');
export const CHECKOUT_SERVICE_URL_FILE = join(CHECKOUT_EXTENSION_DIR, 'src', 'service-url.ts');
/** Shopify's limit on a checkout UI extension's compressed bundle is 64 KB, the order status block's (customer accounts) too. */
export const CHECKOUT_TARGETS = [
  {
    // Shopify Plus only.
    target: 'purchase.checkout.reductions.render-after',
    handle: 'loyalty-checkout-reductions',
    module: 'src/ReductionsBlock.tsx',
    limitBytes: 64 * 1024,
  },
  { target: 'purchase.thank-you.block.render', handle: 'loyalty-thank-you', module: 'src/ThankYouBlock.tsx', limitBytes: 64 * 1024 },
  {
    target: 'customer-account.order-status.block.render',
    handle: 'loyalty-order-status',
    module: 'src/OrderStatusBlock.tsx',
    limitBytes: 64 * 1024,
  },
] as const;

/** The checkout extensions bundled as Shopify's CLI bundles them. */
export async function bundleCheckoutExtension(options: { serviceUrl?: string } = {}): Promise<AccountBundle[]> {
  return bundleTargets(CHECKOUT_EXTENSION_DIR, CHECKOUT_TARGETS, options);
}
// --- end of the checkout extensions.

/** The POS extension (the shop counter, docs/pos.md): its own extension, the same service URL written beside it. */
export const POS_EXTENSION_DIR = resolve(__dirname, '..', 'infra', 'shopify-app', 'extensions', 'loyalty-pos');
export const POS_SERVICE_URL_FILE = join(POS_EXTENSION_DIR, 'src', 'service-url.ts');
/** Every extension's copy of the service URL: `--stack`/`--service-url` writes them all. */
export const SERVICE_URL_FILES = [SERVICE_URL_FILE, ADMIN_SERVICE_URL_FILE, CHECKOUT_SERVICE_URL_FILE, POS_SERVICE_URL_FILE] as const;

/** The targets of shopify.extension.toml, their entry modules and Shopify's limit on each compressed bundle. */
export const ACCOUNT_TARGETS = [
  { target: 'customer-account.page.render', handle: 'loyalty-page', module: 'src/LoyaltyPage.tsx', limitBytes: 128 * 1024 },
  {
    target: 'customer-account.order-index.block.render',
    handle: 'loyalty-orders-block',
    module: 'src/OrdersBlock.tsx',
    limitBytes: 64 * 1024,
  },
] as const;

/** The admin extension's target: Shopify's limit on an admin UI extension's compressed bundle is 64 KB. */
export const ADMIN_TARGETS = [
  {
    target: 'admin.customer-details.block.render',
    handle: 'loyalty-customer-block',
    module: 'src/CustomerBlock.tsx',
    limitBytes: 64 * 1024,
  },
] as const;

/** The POS extension's targets: Shopify's limit on a POS UI extension's compressed bundle is 64 KB. */
export const POS_TARGETS = [
  { target: 'pos.home.tile.render', handle: 'loyalty-pos', module: 'src/HomeTile.tsx', limitBytes: 64 * 1024 },
  { target: 'pos.home.modal.render', handle: 'loyalty-pos', module: 'src/HomeModal.tsx', limitBytes: 64 * 1024 },
  { target: 'pos.customer-details.block.render', handle: 'loyalty-pos', module: 'src/CustomerBlock.tsx', limitBytes: 64 * 1024 },
  {
    target: 'pos.customer-details.action.menu-item.render',
    handle: 'loyalty-pos',
    module: 'src/CustomerMenuItem.tsx',
    limitBytes: 64 * 1024,
  },
  { target: 'pos.customer-details.action.render', handle: 'loyalty-pos', module: 'src/CustomerAction.tsx', limitBytes: 64 * 1024 },
] as const;

export interface AccountBundle {
  target:
    | (typeof ACCOUNT_TARGETS)[number]['target']
    | (typeof ADMIN_TARGETS)[number]['target']
    | (typeof CHECKOUT_TARGETS)[number]['target']
    | (typeof POS_TARGETS)[number]['target'];
  handle: string;
  code: string;
  bytes: number;
  gzipBytes: number;
  limitBytes: number;
}

/** The source of src/service-url.ts for a service URL (the one line `--service-url` writes). */
export function serviceUrlModule(serviceUrl: string): string {
  const url = checkServiceUrl(serviceUrl);
  return `${SERVICE_URL_HEADER}export const SERVICE_URL = '${url.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}';\n`;
}

const SERVICE_URL_HEADER = `// The service's API URL the extensions call (\`{this}/shopper/...\`). Shopify builds the extension from
// this source when the app is deployed, so the URL is a constant of the build: \`npm run
// account-extension -- --stack NAME\` (or \`--service-url URL\`) writes the stack's API URL here before
// \`shopify app deploy\` (docs/deploy.md). The committed value is the local twin's (\`npm start\`).
`;

/** An absolute http(s) URL without query or fragment, trailing slashes dropped; throws a sentence otherwise. */
export function checkServiceUrl(serviceUrl: string): string {
  let url: URL;
  try {
    url = new URL(serviceUrl);
  } catch {
    throw new Error(`--service-url must be an absolute URL (the stack's API URL), got '${serviceUrl}'`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`--service-url must be http(s), got '${url.protocol}'`);
  if (url.search || url.hash) throw new Error(`--service-url must have no query or fragment, got '${serviceUrl}'`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** Bundles every target; with `serviceUrl`, the build calls that service instead of src/service-url.ts's. */
export async function bundleAccountExtension(options: { serviceUrl?: string } = {}): Promise<AccountBundle[]> {
  return bundleTargets(EXTENSION_DIR, ACCOUNT_TARGETS, options);
}

/** The admin block bundled as Shopify's CLI bundles it. */
export async function bundleAdminExtension(options: { serviceUrl?: string } = {}): Promise<AccountBundle[]> {
  return bundleTargets(ADMIN_EXTENSION_DIR, ADMIN_TARGETS, options);
}

/** The POS extension's five targets bundled as Shopify's CLI bundles them. */
export async function bundlePosExtension(options: { serviceUrl?: string } = {}): Promise<AccountBundle[]> {
  return bundleTargets(POS_EXTENSION_DIR, POS_TARGETS, options);
}

async function bundleTargets(
  dir: string,
  targets: ReadonlyArray<{ target: AccountBundle['target']; handle: string; module: string; limitBytes: number }>,
  options: { serviceUrl?: string },
): Promise<AccountBundle[]> {
  const plugins: Plugin[] = [];
  if (options.serviceUrl !== undefined) {
    const contents = serviceUrlModule(options.serviceUrl);
    plugins.push({
      name: 'service-url',
      setup(pluginBuild) {
        pluginBuild.onLoad({ filter: /[\\/]service-url\.ts$/ }, () => ({ contents, loader: 'ts' }));
      },
    });
  }
  return Promise.all(
    targets.map(async (entry) => {
      const result = await build({
        entryPoints: [join(dir, entry.module)],
        absWorkingDir: dir,
        bundle: true,
        minify: true,
        format: 'esm',
        target: 'es2020',
        platform: 'browser',
        jsx: 'automatic',
        jsxImportSource: 'preact',
        alias: { react: 'preact/compat', 'react-dom': 'preact/compat', 'react/jsx-runtime': 'preact/jsx-runtime' },
        define: { 'process.env.NODE_ENV': '"production"' },
        legalComments: 'none',
        write: false,
        logLevel: 'silent',
        plugins,
      });
      const code = result.outputFiles[0]!.text;
      return {
        target: entry.target,
        handle: entry.handle,
        code,
        bytes: Buffer.byteLength(code),
        gzipBytes: gzipSync(code).length,
        limitBytes: entry.limitBytes,
      };
    }),
  );
}

/** Writes src/service-url.ts (or `file`) for `serviceUrl`; answers the URL written. */
export async function writeServiceUrl(serviceUrl: string, file = SERVICE_URL_FILE): Promise<string> {
  const contents = serviceUrlModule(serviceUrl);
  await writeFile(file, contents);
  return checkServiceUrl(serviceUrl);
}

/** The URL src/service-url.ts (or `file`) holds now. */
export async function currentServiceUrl(file = SERVICE_URL_FILE): Promise<string> {
  const source = await readFile(file, 'utf8');
  const match = /export const SERVICE_URL = '((?:[^'\\]|\\.)*)';/.exec(source);
  if (!match) throw new Error(`${file} has no SERVICE_URL constant`);
  return match[1]!.replace(/\\(.)/g, '$1');
}

/** The stack's API URL: its `ApiUrl` output. */
export async function readStackApiUrl(stack: string, client: CloudFormationClient): Promise<string> {
  const url = (await stackOutputs(stack, client)).ApiUrl;
  if (!url) throw new Error(`stack '${stack}' has no output 'ApiUrl': is it the loyalty API stack, fully deployed?`);
  return url;
}
