// A local page that plays Shopify's customer account host for the loyalty extensions, for a real
// Chromium: it defines the `shopify` global the extensions read (sessionToken.get() answered with a real
// customer session token from the platform simulator's POST /_session_tokens, i18n over the extension's
// own locales/en.default.json), registers the STAND-IN Polaris components of polaris-stand-ins.ts (not
// Shopify's renderer), loads one target's bundle and calls its default export, as Shopify does. The
// extension then calls the twin's real /shopper routes, cross-origin, as it calls the service from
// Shopify's sandbox. axe-core is served from node_modules for the accessibility audit.
import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { bundleAccountExtension, EXTENSION_DIR, type AccountBundle } from '../../scripts/account-extension-bundle';

export interface CustomerAccountHost {
  /** The page for a target and a customer (absent: a guest's token). */
  pageUrl(target: 'page' | 'block', customerId?: string): string;
  /** Where axe-core's browser build is served. */
  axeUrl: string;
  stop(): Promise<void>;
}

const HOST_SCRIPT = `
const params = new URLSearchParams(location.search);
const customerId = params.get('customer');
const translations = await (await fetch('/locale.json')).json();
const lookup = (key) => key.split('.').reduce((node, part) => (node == null ? undefined : node[part]), translations);
const plural = new Intl.PluralRules('en');
// Shopify's i18n: dotted keys, {{name}} placeholders, a { one, other } object chosen by the count option.
function translate(key, options = {}) {
  let value = lookup(key);
  if (value && typeof value === 'object' && 'count' in options) value = value[plural.select(options.count)] ?? value.other;
  if (typeof value !== 'string') return key;
  return value.replace(/{{\\s*(\\w+)\\s*}}/g, (_, name) => (name in options ? String(options[name]) : ''));
}
globalThis.shopify = {
  extension: { target: params.get('target') === 'block' ? 'customer-account.order-index.block.render' : 'customer-account.page.render' },
  // The host mints the token (here: the simulator, through this page's server); the extension only asks for it.
  sessionToken: {
    get: async () => {
      const response = await fetch('/session-token' + (customerId ? '?customer=' + encodeURIComponent(customerId) : ''), { method: 'POST' });
      if (!response.ok) throw new Error('no session token: ' + response.status);
      return (await response.json()).token;
    },
  },
  i18n: {
    translate,
    formatNumber: (number, options) => new Intl.NumberFormat('en', options).format(number),
    formatCurrency: (number, options) => new Intl.NumberFormat('en', { style: 'currency', currency: 'USD', ...options }).format(number),
    formatDate: (date, options) => new Intl.DateTimeFormat('en', options).format(date),
  },
  localization: { language: { value: { isoCode: 'en' } } },
};
await import('/polaris-stand-ins.js');
const extension = await import(params.get('target') === 'block' ? '/orders-block.js' : '/loyalty-page.js');
await extension.default();
document.documentElement.dataset.extensionStarted = 'true';
`;

const HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Rewards · customer account (test host with stand-in components)</title>
<style>body { margin: 0; background: #f1f1f1; } s-section, s-banner { margin-bottom: 1rem; }</style>
<script type="module" src="/host.js"></script>
</head>
<body></body>
</html>`;

/**
 * Serves the host page for the twin at `platformUrl`/`shop`; the extension bundles call `serviceUrl`
 * (the twin's API) whatever src/service-url.ts holds.
 */
export async function startCustomerAccountHost(options: {
  serviceUrl: string;
  platformUrl: string;
  shop: string;
}): Promise<CustomerAccountHost> {
  const bundles = await bundleAccountExtension({ serviceUrl: options.serviceUrl });
  const bundleOf = (target: AccountBundle['target']) => bundles.find((bundle) => bundle.target === target)!.code;
  const standIns = await build({
    entryPoints: [join(__dirname, 'polaris-stand-ins.ts')],
    bundle: true,
    format: 'esm',
    write: false,
    logLevel: 'silent',
  });
  const files: Record<string, { type: string; body: string | Buffer }> = {
    '/': { type: 'text/html', body: HTML },
    '/host.js': { type: 'text/javascript', body: HOST_SCRIPT },
    '/polaris-stand-ins.js': { type: 'text/javascript', body: standIns.outputFiles[0]!.text },
    '/loyalty-page.js': { type: 'text/javascript', body: bundleOf('customer-account.page.render') },
    '/orders-block.js': { type: 'text/javascript', body: bundleOf('customer-account.order-index.block.render') },
    '/locale.json': { type: 'application/json', body: await readFile(join(EXTENSION_DIR, 'locales', 'en.default.json')) },
    '/axe.min.js': { type: 'text/javascript', body: await readFile(require.resolve('axe-core/axe.min.js')) },
  };

  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://host.invalid');
    if (url.pathname === '/session-token' && request.method === 'POST') {
      const customerId = url.searchParams.get('customer');
      fetch(`${options.platformUrl}/_session_tokens`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ shop: options.shop, ...(customerId ? { customer_id: customerId } : {}) }),
      }).then(
        async (minted) => {
          response.writeHead(minted.status, { 'Content-Type': 'application/json' });
          response.end(await minted.text());
        },
        (error: unknown) => {
          response.writeHead(502, { 'Content-Type': 'text/plain' });
          response.end(String(error));
        },
      );
      return;
    }
    const file = files[url.pathname];
    if (!file) {
      response.writeHead(404, { 'Content-Type': 'text/plain' });
      response.end('not found');
      return;
    }
    response.writeHead(200, { 'Content-Type': `${file.type}; charset=utf-8`, 'Cache-Control': 'no-store' });
    response.end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    pageUrl: (target, customerId) => `${base}/?target=${target}${customerId ? `&customer=${encodeURIComponent(customerId)}` : ''}`,
    axeUrl: `${base}/axe.min.js`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
