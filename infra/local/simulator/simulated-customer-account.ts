// The customer account pages Shopify serves for each simulated shop, with the app's customer account UI
// extension installed (docs/customer-account.md#see-it-locally): `/account/{shop id}/` is the extension's
// full page (target `customer-account.page.render`), `/account/{shop id}/orders` the order list with its
// block (`customer-account.order-index.block.render`). The extension is its REAL bundle, built from
// infra/shopify-app/extensions/loyalty-account as Shopify's CLI builds it, calling the twin's API; Shopify's
// part is played here: the `shopify` global it reads (a customer session token minted as Shopify mints one,
// signed with the shop's client secret; i18n over the extension's own locale), and STAND-IN Polaris
// components (polaris-stand-ins.ts), not Shopify's renderer. The customer is the one signed in on the twin's
// storefront (its cookie) or `?customer_id=ID`; without either the page says how to sign in, as Shopify
// asks a guest to sign in before any account page. The page and assets are what the tests' host serves
// too (test/support/customer-account-host.ts), so the tests and the twin run the same host.
import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { ACCOUNT_TARGETS, bundleAccountExtension, EXTENSION_DIR } from '../../../scripts/account-extension-bundle';
import { sendJson } from '../http-server';
import { methodNotAllowed } from './simulator-http';
import type { SimulatedShops } from './simulated-shops';
import type { SimulatedCustomer } from './simulated-orders';
import { mintSessionToken } from './shopify-tokens';

/** The stand-in components' module, built for the browser by esbuild. */
export const POLARIS_STAND_INS = join(__dirname, 'polaris-stand-ins.ts');

/** The storefront's sign-in cookie (simulated-storefront.ts sets it for the shop's account pages too). */
export const STOREFRONT_CUSTOMER_COOKIE = 'storefront_customer';

const ACCOUNT_PATH = /^\/account\/([^/]+)(\/.*)?$/;
const CUSTOMER_ID = /^\d{1,20}$/;

export type AccountTarget = (typeof ACCOUNT_TARGETS)[number]['target'];
export const PAGE_TARGET: AccountTarget = 'customer-account.page.render';
export const BLOCK_TARGET: AccountTarget = 'customer-account.order-index.block.render';

/**
 * The host's script: Shopify's `shopify` global as the extension reads it, the stand-ins registered, then the
 * target's bundle loaded and its default export called, as Shopify does. The session token is asked of
 * `session-token` beside the page, with the page's own query (the server knows the customer); every asset is
 * addressed beside this script, so the page works under any path.
 */
export const HOST_SCRIPT = `
const here = (name) => new URL(name, import.meta.url).toString();
const target = document.documentElement.dataset.target
  ?? (new URLSearchParams(location.search).get('target') === 'block' ? '${BLOCK_TARGET}' : '${PAGE_TARGET}');
const translations = await (await fetch(here('locale.json'))).json();
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
  extension: { target },
  // The host mints the token; the extension only asks for it.
  sessionToken: {
    get: async () => {
      const response = await fetch(new URL('session-token' + location.search, location.href), { method: 'POST', credentials: 'same-origin' });
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
// An \`extension:loyalty-page/\` link (the order list's block to the full page) opens the page, as Shopify does.
const fullPage = document.documentElement.dataset.pageUrl;
if (fullPage) {
  document.addEventListener('click', (event) => {
    const anchor = event.composedPath().find((node) => node instanceof HTMLAnchorElement);
    if (!(anchor?.getAttribute('href') ?? '').startsWith('extension:loyalty-page')) return;
    event.preventDefault();
    location.assign(fullPage);
  });
}
await import(here('polaris-stand-ins.js'));
const extension = await import(here(target === '${BLOCK_TARGET}' ? 'orders-block.js' : 'loyalty-page.js'));
// The extension renders into document.body; Shopify draws it in its own region of the account page, so a
// page with that region hands it over while the extension mounts, and gives document.body back after.
const region = document.getElementById('extension-root');
if (region) Object.defineProperty(document, 'body', { configurable: true, get: () => region });
try {
  await extension.default();
} finally {
  if (region) delete document.body;
}
document.documentElement.dataset.extensionStarted = 'true';
`;

export interface HostedFile {
  type: string;
  body: string | Buffer;
}

/**
 * The host's assets, by name: its script, the stand-ins, the two targets' bundles calling `serviceUrl` (the
 * twin's API) whatever src/service-url.ts holds, and the extension's English locale.
 */
export async function customerAccountAssets(serviceUrl: string): Promise<Record<string, HostedFile>> {
  const [bundles, standIns, locale] = await Promise.all([
    bundleAccountExtension({ serviceUrl }),
    build({ entryPoints: [POLARIS_STAND_INS], bundle: true, format: 'esm', write: false, logLevel: 'silent' }),
    readFile(join(EXTENSION_DIR, 'locales', 'en.default.json')),
  ]);
  const bundleOf = (target: AccountTarget) => bundles.find((bundle) => bundle.target === target)!.code;
  return {
    'host.js': { type: 'text/javascript', body: HOST_SCRIPT },
    'polaris-stand-ins.js': { type: 'text/javascript', body: standIns.outputFiles[0]!.text },
    'loyalty-page.js': { type: 'text/javascript', body: bundleOf(PAGE_TARGET) },
    'orders-block.js': { type: 'text/javascript', body: bundleOf(BLOCK_TARGET) },
    'locale.json': { type: 'application/json', body: locale },
  };
}

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character]!);

const STYLE = `
:root { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1a1a1a; }
body { margin: 0; background: #f1f1f1; }
.account-header { background: #fff; border-bottom: 1px solid #dedede; }
.account-header .bar { max-width: 62rem; margin: 0 auto; padding: 0.75rem 1rem; display: flex; flex-wrap: wrap; gap: 0.5rem 1.5rem; align-items: center; }
.account-header .shop { font-weight: 650; font-size: 1.1rem; margin-right: auto; }
.account-header nav ul { list-style: none; display: flex; gap: 1rem; margin: 0; padding: 0; }
.account-header a { color: #1a1a1a; text-underline-offset: 0.2em; }
.account-header a[aria-current="page"] { font-weight: 650; }
.account-header .who { color: #4a4a4a; font-size: 0.9rem; }
.account-main { max-width: 62rem; margin: 0 auto; padding: 1rem; }
.twin-note { max-width: 62rem; margin: 0 auto; padding: 0 1rem 2rem; color: #4a4a4a; font-size: 0.85rem; }
.sign-in { background: #fff; border-radius: 0.75rem; padding: 1.25rem; max-width: 36rem; }
.sign-in h1 { font-size: 1.4rem; margin-top: 0; }
.sign-in ul { padding-left: 1.2rem; }
s-section, s-banner { margin-bottom: 1rem; }
@media (max-width: 30rem) { .account-header .bar { padding: 0.6rem 0.75rem; } .account-main { padding: 0.75rem; } }
`;

const NOTE =
  'Local twin: this page plays Shopify’s customer account. The loyalty content is the app’s real extension bundle; ' +
  'its components are stand-ins for Shopify’s, which Shopify draws with its own look (docs/customer-account.md).';

interface Chrome {
  shopName: string;
  root: string;
  storefront: string;
  current: 'rewards' | 'orders' | null;
  customer: { id: string; name: string } | null;
  query: string;
}

function page(chrome: Chrome, title: string, body: string, target: AccountTarget | null): string {
  const link = (href: string, label: string, current: boolean) =>
    `<li><a href="${escape(href)}"${current ? ' aria-current="page"' : ''}>${escape(label)}</a></li>`;
  const assets = `${chrome.root}/_host/`;
  return `<!doctype html>
<html lang="en"${target ? ` data-target="${target}" data-page-url="${escape(`${chrome.root}/${chrome.query}`)}"` : ''}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} · ${escape(chrome.shopName)}</title>
<style>${STYLE}</style>
${target ? `<script type="module" src="${escape(assets)}host.js"></script>` : ''}
</head>
<body>
<header class="account-header">
<div class="bar">
<span class="shop">${escape(chrome.shopName)}</span>
<nav aria-label="Account"><ul>
${link(`${chrome.storefront}/`, 'Shop', false)}
${link(`${chrome.root}/orders${chrome.query}`, 'Orders', chrome.current === 'orders')}
${link(`${chrome.root}/${chrome.query}`, 'Rewards', chrome.current === 'rewards')}
</ul></nav>
${chrome.customer ? `<span class="who">Signed in as ${escape(chrome.customer.name)} (customer ${escape(chrome.customer.id)})</span>` : ''}
</div>
</header>
<div class="account-main">${body}</div>
<footer class="twin-note"><p>${escape(NOTE)}</p></footer>
</body>
</html>`;
}

export interface SimulatedCustomerAccountOptions {
  shops: SimulatedShops;
  /** The twin's API the extension calls (`{api}`); null until the twin sets it (the page answers 503). */
  serviceUrl: () => string | null;
  /** Real time in ms: session tokens expire by it, never by the domain clock. */
  realNow: () => number;
}

export interface SimulatedCustomerAccount {
  /** Handles /account/...; false for any other path. */
  handle(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean>;
}

export function createSimulatedCustomerAccount(options: SimulatedCustomerAccountOptions): SimulatedCustomerAccount {
  const account = new AccountPages(options);
  return { handle: (req, res, pathname) => account.handle(req, res, pathname) };
}

const sendAccountHtml = (res: ServerResponse, status: number, html: string) =>
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(html);

class AccountPages {
  // Built once per service URL, on the first page asked for (a bundle takes a second or so).
  private assets: { serviceUrl: string; files: Promise<Record<string, HostedFile>> } | null = null;

  constructor(private readonly options: SimulatedCustomerAccountOptions) {}

  private assetsFor(serviceUrl: string) {
    if (!this.assets || this.assets.serviceUrl !== serviceUrl) this.assets = { serviceUrl, files: customerAccountAssets(serviceUrl) };
    return this.assets.files;
  }

  /** The customer of a request: `?customer_id=` first, else the storefront's sign-in cookie; null for a guest. */
  private customerOf(req: IncomingMessage, shopId: string, query: URLSearchParams) {
    const { shops } = this.options;
    const asked = query.get('customer_id');
    if (asked !== null) return { asked, customer: CUSTOMER_ID.test(asked) ? (shops.customer(shopId, asked) ?? null) : null };
    const id = cookieValue(req.headers.cookie, STOREFRONT_CUSTOMER_COOKIE);
    return { asked: null, customer: id ? (shops.customer(shopId, id) ?? null) : null };
  }

  async handle(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean> {
    const match = ACCOUNT_PATH.exec(pathname);
    if (!match) return false;
    const shopId = decodeURIComponent(match[1]!);
    if (!this.options.shops.has(shopId)) {
      sendJson(res, 404, { error: `The platform simulator has no shop '${shopId}'` });
      return true;
    }
    const rest = match[2] ?? '';
    const url = new URL(req.url ?? '/', 'http://localhost');
    const serviceUrl = this.options.serviceUrl();
    if (rest.startsWith('/_host/')) return this.serveHostFile(req, res, rest, serviceUrl);
    const { asked, customer } = this.customerOf(req, shopId, url.searchParams);
    if (rest === '/session-token') return this.mint(req, res, shopId, customer);
    const current = rest === '' || rest === '/' ? 'rewards' : rest === '/orders' ? 'orders' : null;
    if (req.method !== 'GET' && req.method !== 'HEAD') return (methodNotAllowed(res, 'GET'), true);
    const chrome: Chrome = {
      shopName: this.options.shops.name(shopId),
      root: `/account/${encodeURIComponent(shopId)}`,
      storefront: `/storefront/${encodeURIComponent(shopId)}`,
      current,
      customer: customer ? { id: customer.id, name: nameOf(customer) } : null,
      query: asked !== null && customer ? `?customer_id=${encodeURIComponent(asked)}` : '',
    };
    this.servePage(res, shopId, chrome, asked, customer, serviceUrl);
    return true;
  }

  private async serveHostFile(req: IncomingMessage, res: ServerResponse, rest: string, serviceUrl: string | null) {
    if (req.method !== 'GET' && req.method !== 'HEAD') return (methodNotAllowed(res, 'GET, HEAD'), true);
    if (!serviceUrl) return (sendJson(res, 503, { error: 'The twin has not started its API yet' }), true);
    const file = (await this.assetsFor(serviceUrl))[rest.slice('/_host/'.length)];
    if (!file) return (sendJson(res, 404, { error: 'Not Found' }), true);
    res.writeHead(200, { 'Content-Type': `${file.type}; charset=utf-8`, 'Cache-Control': 'no-store' }).end(file.body);
    return true;
  }

  private async mint(req: IncomingMessage, res: ServerResponse, shopId: string, customer: SimulatedCustomer | null) {
    if (req.method !== 'POST') return (methodNotAllowed(res, 'POST'), true);
    const { shops } = this.options;
    const credentials = shops.credentials(shopId);
    if (!credentials) return (sendJson(res, 422, { error: `Shop '${shopId}' has no client_id/client_secret` }), true);
    // Shopify mints a token only for a signed-in customer's account pages.
    if (!customer) return (sendJson(res, 401, { error: 'No customer is signed in' }), true);
    const token = await mintSessionToken(credentials, shops.identity(shopId).domain, customer.id, this.options.realNow());
    sendJson(res, 200, { token });
    return true;
  }

  /** The rewards or orders page, or the page saying why it cannot be shown. */
  private servePage(
    res: ServerResponse,
    shopId: string,
    chrome: Chrome,
    asked: string | null,
    customer: SimulatedCustomer | null,
    serviceUrl: string | null,
  ) {
    const { current } = chrome;
    if (current === null) {
      return sendAccountHtml(res, 404, page(chrome, 'Page not found', '<main class="sign-in"><h1>Page not found</h1></main>', null));
    }
    if (!this.options.shops.credentials(shopId)) {
      const body = `<main class="sign-in"><h1>No customer account extensions</h1><p>Shop ${escape(shopId)} has no app client id and secret in the configuration, so the app's extensions are not installed on it (docs/configuration.md).</p></main>`;
      return sendAccountHtml(res, 409, page(chrome, 'No extensions', body, null));
    }
    if (!customer) {
      const body = signInBody(this.options.shops.customers(shopId), chrome, asked);
      return sendAccountHtml(res, asked !== null ? 404 : 401, page(chrome, 'Sign in', body, null));
    }
    if (!serviceUrl) {
      return sendAccountHtml(
        res,
        503,
        page(chrome, 'Starting', '<main class="sign-in"><h1>The twin is starting</h1><p>Reload in a moment.</p></main>', null),
      );
    }
    // The extension's region: the full page's own main landmark and heading are the extension's (s-page);
    // the order list is Shopify's page (a stand-in with no orders), the block drawn in it.
    const body =
      current === 'orders'
        ? '<main><h1>Orders</h1><p>The order list is Shopify\u2019s; this stand-in lists none. The app\u2019s block follows.</p><div id="extension-root"></div></main>'
        : '<div id="extension-root"></div>';
    sendAccountHtml(
      res,
      200,
      page(chrome, current === 'orders' ? 'Orders' : 'Rewards', body, current === 'orders' ? BLOCK_TARGET : PAGE_TARGET),
    );
  }
}

/** The page asking a guest to sign in, with a few of the shop's customers to open it as. */
function signInBody(known: SimulatedCustomer[], chrome: Chrome, asked: string | null): string {
  const customers = known
    .slice(0, 5)
    .map(
      (entry) =>
        `<li><a href="${escape(`${chrome.root}/?customer_id=${encodeURIComponent(entry.id)}`)}">${escape(nameOf(entry))} (customer ${escape(entry.id)})</a></li>`,
    )
    .join('');
  const unknown = asked !== null ? `<p role="alert">The shop has no customer ${escape(asked)}.</p>` : '';
  return `<main class="sign-in"><h1>Sign in to see your account</h1>${unknown}
<p>Your orders and rewards are shown once you are signed in, as Shopify asks every visitor to sign in before an account page.</p>
<p><a href="${escape(`${chrome.storefront}/account/login`)}">Sign in on the storefront</a>, then come back to this page; or open it as one of the shop's customers:</p>
<ul>${customers}</ul></main>`;
}

export function nameOf(customer: { id: string; first_name?: string | null; last_name?: string | null; email?: string | null }): string {
  const name = [customer.first_name, customer.last_name].filter((part) => part).join(' ');
  return name || customer.email || `Customer ${customer.id}`;
}

export function cookieValue(header: string | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at !== -1 && part.slice(0, at).trim() === name) {
      const value = decodeURIComponent(part.slice(at + 1).trim());
      return value === '' ? null : value;
    }
  }
  return null;
}
