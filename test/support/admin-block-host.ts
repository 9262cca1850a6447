// A local page that plays Shopify's admin for the loyalty block on the customer page
// (admin.customer-details.block.render), for a real Chromium: it defines the `shopify` global as the
// block's shopify.d.ts types it (the viewed customer in `data.selected`, `auth.idToken()` answered with a real
// staff ID token from the platform simulator's POST /_id_tokens, i18n over the extension's own
// locales/en.default.json), adds `Authorization: Bearer <ID token>` to every fetch to the app's origin as
// Shopify's admin does, opens an `app:` link as the app's page in the twin's admin (`app:?customer=1001` →
// /admin/{shop}/?customer=1001), registers the STAND-IN Polaris components of infra/local/simulator/polaris-stand-ins.ts (not
// Shopify's renderer), loads the block's real bundle and calls its default export. The page has an origin of
// its own, as the block runs on a Shopify origin, so its call to the service is cross-origin. axe-core is
// served from node_modules for the accessibility audit.
import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ADMIN_EXTENSION_DIR, ADMIN_TARGETS, bundleAdminExtension } from '../../scripts/account-extension-bundle';
import { POLARIS_STAND_INS } from '../../infra/local/simulator/simulated-customer-account';

export interface AdminBlockHost {
  /** The customer page's block for a customer id of the platform (absent: a page naming no customer). */
  pageUrl(customerId?: string): string;
  /** Where axe-core's browser build is served. */
  axeUrl: string;
  /** How many ID tokens the block's host minted (one per call to the app's origin). */
  idTokensMinted(): number;
  stop(): Promise<void>;
}

const HOST_SCRIPT = `
const params = new URLSearchParams(location.search);
const settings = await (await fetch('/settings.json')).json();
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
// The page's own fetch, before the admin's wrapping below.
const pageFetch = globalThis.fetch.bind(globalThis);
// The admin mints the staff user's ID token (here: the simulator, through this page's server).
const idToken = async () => {
  const response = await pageFetch('/id-token', { method: 'POST' });
  if (!response.ok) return null;
  return (await response.json()).token;
};
globalThis.shopify = {
  extension: { target: settings.target },
  data: { selected: customerId ? [{ id: 'gid://shopify/Customer/' + customerId }] : [] },
  auth: { idToken },
  i18n: {
    translate,
    formatNumber: (number, options) => new Intl.NumberFormat('en', options).format(number),
    formatCurrency: (number, options) => new Intl.NumberFormat('en', { style: 'currency', currency: 'USD', ...options }).format(number),
    formatDate: (date, options) => new Intl.DateTimeFormat('en', options).format(date),
  },
  navigation: { navigate: (url) => location.assign(String(url)) },
};
// A fetch to the app's origin carries the ID token, added by the admin, never by the extension; a relative
// address is the app's (resolved against its URL).
globalThis.fetch = async (input, init = {}) => {
  const url = new URL(input instanceof Request ? input.url : String(input), settings.appUrl);
  if (url.origin !== new URL(settings.appUrl).origin) return pageFetch(input, init);
  const token = await idToken();
  const headers = new Headers(init.headers);
  if (token) headers.set('Authorization', 'Bearer ' + token);
  return pageFetch(url, { ...init, headers });
};
// An app: link opens the app's page in the admin, its path and query after the app's URL.
document.addEventListener('click', (event) => {
  const anchor = event.composedPath().find((node) => node instanceof HTMLAnchorElement);
  const href = anchor?.getAttribute('href') ?? '';
  if (!href.startsWith('app:')) return;
  event.preventDefault();
  const target = new URL(href.slice('app:'.length).replace(/^\\/+/, ''), settings.appAdminUrl);
  location.assign(target.toString());
});
await import('/polaris-stand-ins.js');
const extension = await import('/customer-block.js');
await extension.default();
document.documentElement.dataset.extensionStarted = 'true';
`;

const HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Customer · Shopify admin (test host with stand-in components)</title>
<style>body { margin: 0; padding: 1rem; background: #f1f1f1; } section.admin-block { max-width: 22rem; }</style>
<script type="module" src="/host.js"></script>
</head>
<body></body>
</html>`;

/**
 * Serves the block's host for the twin's shop `shop`: the block calls `serviceUrl` (the twin's API)
 * whatever src/service-url.ts holds; its ID tokens come from `platformUrl`'s POST /_id_tokens for staff
 * user `staffUser`; an `app:` link opens `adminUrl` (the simulator's admin of the shop).
 */
export async function startAdminBlockHost(options: {
  serviceUrl: string;
  platformUrl: string;
  adminUrl: string;
  shop: string;
  staffUser?: string;
}): Promise<AdminBlockHost> {
  const [bundle] = await bundleAdminExtension({ serviceUrl: options.serviceUrl });
  const standIns = await build({
    entryPoints: [POLARIS_STAND_INS],
    bundle: true,
    format: 'esm',
    write: false,
    logLevel: 'silent',
  });
  const settings = { target: ADMIN_TARGETS[0].target, appUrl: `${options.serviceUrl}/admin`, appAdminUrl: options.adminUrl };
  const files: Record<string, { type: string; body: string | Buffer }> = {
    '/': { type: 'text/html', body: HTML },
    '/host.js': { type: 'text/javascript', body: HOST_SCRIPT },
    '/settings.json': { type: 'application/json', body: JSON.stringify(settings) },
    '/polaris-stand-ins.js': { type: 'text/javascript', body: standIns.outputFiles[0]!.text },
    '/customer-block.js': { type: 'text/javascript', body: bundle!.code },
    '/locale.json': { type: 'application/json', body: await readFile(join(ADMIN_EXTENSION_DIR, 'locales', 'en.default.json')) },
    '/axe.min.js': { type: 'text/javascript', body: await readFile(require.resolve('axe-core/axe.min.js')) },
  };

  let minted = 0;
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://host.invalid');
    if (url.pathname === '/id-token' && request.method === 'POST') {
      fetch(`${options.platformUrl}/_id_tokens`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ shop: options.shop, user_id: options.staffUser ?? '42' }),
      }).then(
        async (answer) => {
          if (answer.ok) minted += 1;
          response.writeHead(answer.status, { 'Content-Type': 'application/json' });
          response.end(await answer.text());
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
    pageUrl: (customerId) => `${base}/${customerId ? `?customer=${encodeURIComponent(customerId)}` : ''}`,
    axeUrl: `${base}/axe.min.js`,
    idTokensMinted: () => minted,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
