// Shopify's checkout for each simulated shop, with the app's checkout UI extensions installed (docs/checkout.md#see-it-locally):
// `/checkout/{shop id}/?variant=41002&quantity=1` is a checkout of that cart (the storefront's products) hosting
// the block beside the discount field (`purchase.checkout.reductions.render-after`); "Pay" places the order through
// the simulator, its orders/paid webhook delivered as for any order, and opens `/checkout/{shop id}/thank-you/{order
// id}` with the thank-you block (`purchase.thank-you.block.render`); `/checkout/{shop id}/orders/{order id}` is the
// order status page with its block (`customer-account.order-status.block.render`). The extensions are their REAL
// bundles, built from infra/shopify-app/extensions/loyalty-checkout as Shopify's CLI builds them, calling the
// twin's API; Shopify's part is played here: the `shopify` global they read (a session token minted as Shopify
// mints one for checkout, the cart lines, the buyer identity, the applied codes, `applyDiscountCodeChange`, the
// order) and STAND-IN Polaris components (polaris-stand-ins.ts). The buyer is the storefront's signed-in customer
// (its cookie) or `?customer_id=ID`, else a guest. The cart's prices and codes are worked out here, on the server,
// from the shop's discount codes, as Shopify's checkout does: the page only shows them.
import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { bundleCheckoutExtension, CHECKOUT_EXTENSION_DIR, CHECKOUT_TARGETS } from '../../../scripts/account-extension-bundle';
import { formatMinorUnits, minorDigits } from '../../../shared/domain/money';
import { sendJson } from '../http-server';
import { restOrderPayload } from './rest-order-payloads';
import { cookieValue, nameOf, POLARIS_STAND_INS, STOREFRONT_CUSTOMER_COOKIE, type HostedFile } from './simulated-customer-account';
import type { SimulatedDiscountCodes } from './simulated-discount-codes';
import type { SimulatedCustomer, SimulatedOrder, SimulatedOrders } from './simulated-orders';
import type { SimulatedShops } from './simulated-shops';
import { BadRequest, methodNotAllowed, readJson } from './simulator-http';
import { themeProducts } from './storefront-theme';
import type { WebhookDeliveries } from './webhook-deliveries';
import { mintSessionToken } from './shopify-tokens';

type CheckoutTarget = (typeof CHECKOUT_TARGETS)[number]['target'];
export const REDUCTIONS_TARGET: CheckoutTarget = 'purchase.checkout.reductions.render-after';
export const THANK_YOU_TARGET: CheckoutTarget = 'purchase.thank-you.block.render';
export const ORDER_STATUS_TARGET: CheckoutTarget = 'customer-account.order-status.block.render';

const CHECKOUT_PATH = /^\/checkout\/([^/]+)(\/.*)?$/;
const CUSTOMER_ID = /^\d{1,20}$/;
const ORDER_PAGE = /^\/(thank-you|orders)\/(\d{1,20})(\/session-token)?$/;
const MAX_QUANTITY = 99;

/** One line of the cart as the server prices it (minor units). */
export interface PricedLine {
  variant_id: string;
  title: string;
  quantity: number;
  unit_price: number;
  /** price × quantity less the codes' allocations. */
  total: number;
  allocations: Array<{ code: string; amount: number }>;
}

export interface PricedCart {
  currency: string;
  digits: number;
  lines: PricedLine[];
  codes: Array<{ code: string; label: string }>;
  subtotal: number;
  discount: number;
  total: number;
}

/** Why checkout refuses a code, in Shopify's words. */
class CodeRefused extends Error {}

/**
 * The host's script: Shopify's `shopify` global for the page's target (its state from the page's JSON), the
 * stand-ins registered, then the target's bundle loaded and its default export called, as Shopify does. On the
 * checkout, the page's own parts (the applied codes, the totals) follow the same cart the extension reads.
 */
export const CHECKOUT_HOST_SCRIPT = `
const here = (name) => new URL(name, import.meta.url).toString();
const root = document.documentElement;
const target = root.dataset.target;
const state = JSON.parse(document.getElementById('checkout-state').textContent);
const translations = await (await fetch(here('locale.json'))).json();
const lookup = (key) => key.split('.').reduce((node, part) => (node == null ? undefined : node[part]), translations);
const plural = new Intl.PluralRules('en');
function translate(key, options = {}) {
  let value = lookup(key);
  if (value && typeof value === 'object' && 'count' in options) value = value[plural.select(options.count)] ?? value.other;
  if (typeof value !== 'string') return key;
  return value.replace(/{{\\s*(\\w+)\\s*}}/g, (_, name) => (name in options ? String(options[name]) : ''));
}
function signal(value) {
  const listeners = new Set();
  return {
    get value() { return value; },
    get current() { return value; },
    subscribe(fn) { listeners.add(fn); return () => listeners.delete(fn); },
    set(next) { value = next; for (const fn of listeners) fn(next); },
  };
}
const major = (minor) => minor / 10 ** state.cart.digits;
const money = (minor) => ({ amount: major(minor), currencyCode: state.cart.currency });
const cartLines = (cart) => cart.lines.map((line, index) => ({
  id: 'gid://shopify/CartLine/' + (index + 1),
  merchandise: { type: 'variant', id: 'gid://shopify/ProductVariant/' + line.variant_id, title: line.title },
  quantity: line.quantity,
  cost: { totalAmount: money(line.total) },
  discountAllocations: line.allocations.map((allocation) => ({ type: 'code', code: allocation.code, discountedAmount: money(allocation.amount) })),
  attributes: [],
}));
const lines = signal(cartLines(state.cart));
const discountCodes = signal(state.cart.codes.map((entry) => ({ code: entry.code })));
const totalAmount = signal(money(state.cart.total));
const page = new URLSearchParams(location.search);
const query = page.get('customer_id') ? '?customer_id=' + encodeURIComponent(page.get('customer_id')) : '';
const call = (path, body) => fetch(new URL(path + query, location.href.replace(/[^/]*$/, '')), {
  method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
});
function show(cart) {
  state.cart = cart;
  lines.set(cartLines(cart));
  discountCodes.set(cart.codes.map((entry) => ({ code: entry.code })));
  totalAmount.set(money(cart.total));
  document.dispatchEvent(new CustomEvent('checkout-cart', { detail: cart }));
}
// Shopify applies a code only after the server has accepted it; the answer says why not.
async function changeCodes(codes) {
  const response = await call('cart', { items: state.items, codes });
  const answer = await response.json();
  if (!response.ok) return { type: 'error', message: answer.error ?? 'The code could not be applied' };
  show(answer.cart);
  return { type: 'success' };
}
globalThis.checkoutCart = { changeCodes, state };
globalThis.shopify = {
  extension: { target },
  sessionToken: {
    get: async () => {
      const response = await fetch(new URL(state.sessionTokenPath + query, location.href), { method: 'POST', credentials: 'same-origin' });
      if (!response.ok) throw new Error('no session token: ' + response.status);
      return (await response.json()).token;
    },
  },
  i18n: {
    translate,
    formatNumber: (number, options) => new Intl.NumberFormat('en', options).format(number),
    formatCurrency: (number, options) => new Intl.NumberFormat('en', { style: 'currency', currency: state.cart.currency, ...options }).format(number),
    formatDate: (date, options) => new Intl.DateTimeFormat('en', options).format(date),
  },
  localization: { language: signal({ isoCode: 'en' }), currency: signal({ isoCode: state.cart.currency }) },
  shop: { name: state.shopName, myshopifyDomain: state.shopDomain, storefrontUrl: new URL(state.storefrontPath, location.href).toString() },
  cost: { totalAmount, subtotalAmount: totalAmount },
  lines,
  discountCodes,
  discountAllocations: signal([]),
  buyerIdentity: { customer: signal(state.customerId ? { id: 'gid://shopify/Customer/' + state.customerId } : undefined) },
  instructions: signal({ discounts: { canUpdateDiscountCodes: target === '${REDUCTIONS_TARGET}' } }),
  applyDiscountCodeChange: async (change) => {
    const current = state.cart.codes.map((entry) => entry.code);
    if (change.type === 'addDiscountCode') {
      if (current.some((code) => code.toLowerCase() === change.code.toLowerCase())) return { type: 'success' };
      return changeCodes([...current, change.code]);
    }
    if (change.type === 'removeDiscountCode') return changeCodes(current.filter((code) => code.toLowerCase() !== change.code.toLowerCase()));
    return { type: 'error', message: 'Unknown change' };
  },
  ...(state.order
    ? {
        orderConfirmation: signal({ order: { id: 'gid://shopify/Order/' + state.order.id }, number: state.order.confirmation, isFirstOrder: false }),
        order: signal({ id: 'gid://shopify/Order/' + state.order.id, name: state.order.name, processedAt: state.order.processedAt, cancelledAt: state.order.cancelledAt ?? undefined }),
      }
    : {}),
};
// The checkout page's own parts (applied codes, discount field, totals, Pay) on the same cart.
if (document.getElementById('discount-form')) await import(here('page.js'));
await import(here('polaris-stand-ins.js'));
const bundle = { '${REDUCTIONS_TARGET}': 'reductions.js', '${THANK_YOU_TARGET}': 'thank-you.js', '${ORDER_STATUS_TARGET}': 'order-status.js' }[target];
// A shop without Shopify Plus: Shopify does not render the checkout-step target at all.
if (state.plus !== false || target !== '${REDUCTIONS_TARGET}') {
  const extension = await import(here(bundle));
  const region = document.getElementById('extension-root');
  Object.defineProperty(document, 'body', { configurable: true, get: () => region });
  try {
    await extension.default();
  } finally {
    delete document.body;
  }
}
root.dataset.extensionStarted = 'true';
`;

/** The checkout page's own script: the applied codes, the discount field, the totals and Pay, on the same cart. */
const PAGE_SCRIPT = `
const state = globalThis.checkoutCart.state;
const format = (minor) => new Intl.NumberFormat('en', { style: 'currency', currency: state.cart.currency }).format(minor / 10 ** state.cart.digits);
const codesList = document.getElementById('applied-codes');
function render(cart) {
  codesList.replaceChildren(...cart.codes.map((entry) => {
    const item = document.createElement('li');
    const text = document.createElement('span');
    text.textContent = entry.code + ' · ' + entry.label;
    const remove = document.createElement('button');
    remove.type = 'button';
    remove.textContent = 'Remove';
    remove.setAttribute('aria-label', 'Remove code ' + entry.code);
    remove.addEventListener('click', () => globalThis.checkoutCart.changeCodes(cart.codes.map((c) => c.code).filter((c) => c !== entry.code)));
    item.append(text, ' ', remove);
    return item;
  }));
  document.getElementById('codes-none').hidden = cart.codes.length > 0;
  document.getElementById('subtotal').textContent = format(cart.subtotal);
  document.getElementById('discount').textContent = cart.discount ? '−' + format(cart.discount) : format(0);
  document.getElementById('total').textContent = format(cart.total);
}
document.addEventListener('checkout-cart', (event) => render(event.detail));
render(state.cart);
const form = document.getElementById('discount-form');
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const input = document.getElementById('discount-code');
  const message = document.getElementById('discount-message');
  const code = input.value.trim();
  if (!code) return;
  const result = await globalThis.shopify.applyDiscountCodeChange({ type: 'addDiscountCode', code });
  message.textContent = result.type === 'success' ? 'Code ' + code + ' applied.' : result.message;
  if (result.type === 'success') input.value = '';
});
document.getElementById('pay').addEventListener('click', async (event) => {
  const button = event.currentTarget;
  button.disabled = true;
  button.textContent = 'Paying…';
  const page = new URLSearchParams(location.search);
  const query = page.get('customer_id') ? '?customer_id=' + encodeURIComponent(page.get('customer_id')) : '';
  const response = await fetch('pay' + query, {
    method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ items: state.items, codes: state.cart.codes.map((entry) => entry.code) }),
  });
  const answer = await response.json();
  if (!response.ok) {
    document.getElementById('pay-message').textContent = answer.error ?? 'The payment failed';
    button.disabled = false;
    button.textContent = 'Pay now';
    return;
  }
  location.assign(answer.thank_you_url);
});
`;

/** The host's assets: its scripts, the stand-ins, the three targets' bundles calling `serviceUrl`, the locale. */
export async function checkoutAssets(serviceUrl: string): Promise<Record<string, HostedFile>> {
  const [bundles, standIns, locale] = await Promise.all([
    bundleCheckoutExtension({ serviceUrl }),
    build({ entryPoints: [POLARIS_STAND_INS], bundle: true, format: 'esm', write: false, logLevel: 'silent' }),
    readFile(join(CHECKOUT_EXTENSION_DIR, 'locales', 'en.default.json')),
  ]);
  const bundleOf = (target: CheckoutTarget) => bundles.find((bundle) => bundle.target === target)!.code;
  return {
    'host.js': { type: 'text/javascript', body: CHECKOUT_HOST_SCRIPT },
    'page.js': { type: 'text/javascript', body: PAGE_SCRIPT },
    'polaris-stand-ins.js': { type: 'text/javascript', body: standIns.outputFiles[0]!.text },
    'reductions.js': { type: 'text/javascript', body: bundleOf(REDUCTIONS_TARGET) },
    'thank-you.js': { type: 'text/javascript', body: bundleOf(THANK_YOU_TARGET) },
    'order-status.js': { type: 'text/javascript', body: bundleOf(ORDER_STATUS_TARGET) },
    'locale.json': { type: 'application/json', body: locale },
  };
}

/** An amount as the shopper reads it ($89.00). */
const moneyText = (minor: number, currency: string) =>
  new Intl.NumberFormat('en', { style: 'currency', currency }).format(minor / 10 ** minorDigits(currency));

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character]!);

/** JSON inside a <script type="application/json">: nothing in it can close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

const STYLE = `
:root { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1a1a1a; }
body { margin: 0; background: #fafafa; }
header.bar { background: #fff; border-bottom: 1px solid #dedede; }
header.bar div { max-width: 64rem; margin: 0 auto; padding: .9rem 1rem; display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: center; }
header.bar .shop { font-weight: 650; font-size: 1.15rem; margin-right: auto; }
header.bar .who { color: #4a4a4a; font-size: .9rem; }
a { color: #004bb0; }
main { max-width: 64rem; margin: 0 auto; padding: 1rem; display: grid; gap: 1.5rem; align-items: start; grid-template-columns: minmax(0, 1fr) minmax(0, 24rem); }
main.single { grid-template-columns: minmax(0, 40rem); justify-content: center; }
@media (max-width: 48rem) { main { grid-template-columns: 1fr; } }
h1 { font-size: 1.5rem; margin: 0 0 .5rem; }
h2 { font-size: 1.1rem; margin: 0 0 .5rem; }
.panel { background: #fff; border: 1px solid #dedede; border-radius: 12px; padding: 1rem 1.25rem; display: flex; flex-direction: column; gap: .75rem; }
table { width: 100%; border-collapse: collapse; }
th, td { text-align: left; padding: .35rem 0; }
td.amount, th.amount { text-align: right; }
ul.codes { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: .35rem; }
form.discount { display: flex; gap: .5rem; flex-wrap: wrap; align-items: end; }
form.discount label { display: flex; flex-direction: column; gap: .2rem; flex: 1; }
input { font: inherit; padding: .45rem .6rem; border: 1px solid #8a8a8a; border-radius: 8px; }
button { font: inherit; border-radius: 8px; padding: .45rem 1rem; border: 1px solid #8a8a8a; background: #fff; color: #1a1a1a; cursor: pointer; }
button.pay { background: #1a1a1a; color: #fff; border-color: #1a1a1a; padding: .7rem 1.2rem; font-weight: 600; }
button:focus-visible, a:focus-visible, input:focus-visible { outline: 3px solid #005bd3; outline-offset: 2px; }
.total { font-weight: 700; font-size: 1.1rem; }
.note { color: #4a4a4a; font-size: .85rem; }
.twin-note { max-width: 64rem; margin: 0 auto; padding: 0 1rem 2rem; color: #4a4a4a; font-size: .85rem; }
s-section, s-banner { margin-bottom: .5rem; }
`;

const NOTE =
  'Local twin: this page plays Shopify’s checkout. The loyalty content is the app’s real extension bundle; its components are ' +
  'stand-ins for Shopify’s, which Shopify draws with its own look (docs/checkout.md).';

interface PageParts {
  shopName: string;
  title: string;
  who: string;
  main: string;
  single?: boolean;
  target: CheckoutTarget | null;
  state: unknown;
  scripts: string[];
}

function page(parts: PageParts): string {
  return `<!doctype html>
<html lang="en"${parts.target ? ` data-target="${parts.target}"` : ''}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(parts.title)} · ${escape(parts.shopName)}</title>
<style>${STYLE}</style>
${parts.state === null ? '' : `<script type="application/json" id="checkout-state">${scriptJson(parts.state)}</script>`}
${parts.scripts.map((src) => `<script type="module" src="${escape(src)}"></script>`).join('\n')}
</head>
<body>
<header class="bar"><div><span class="shop">${escape(parts.shopName)}</span><span class="who">${parts.who}</span></div></header>
<main class="${parts.single ? 'single' : ''}">${parts.main}</main>
<footer class="twin-note"><p>${escape(NOTE)}</p></footer>
</body>
</html>`;
}

export interface SimulatedCheckoutOptions {
  shops: SimulatedShops;
  codes: SimulatedDiscountCodes;
  orders: SimulatedOrders;
  deliveries: WebhookDeliveries;
  /** The twin's API the extensions call (`{api}`); null until the twin sets it (the pages answer 503). */
  serviceUrl: () => string | null;
  /** Real time in ms: session tokens expire by it, never by the domain clock. */
  realNow: () => number;
  /** The domain clock: a code's end date is read by it, as the orders are stamped by it. */
  now: () => Date;
}

export interface SimulatedCheckout {
  /** Handles /checkout/...; false for any other path. */
  handle(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean>;
}

interface CartItem {
  variant_id: string;
  quantity: number;
}

export function createSimulatedCheckout(options: SimulatedCheckoutOptions): SimulatedCheckout {
  const checkout = new CheckoutPages(options);
  return { handle: (req, res, pathname) => checkout.handle(req, res, pathname) };
}

/** One request's shop, buyer and paths, read once by `handle`. */
interface Visit {
  shopId: string;
  root: string;
  storefront: string;
  url: URL;
  serviceUrl: string | null;
  asked: string | null;
  customer: SimulatedCustomer | null;
  shopName: string;
}

const STARTING_PAGE = '<!doctype html><title>Starting</title><p>The twin is starting; reload in a moment.</p>';

const sendHtml = (res: ServerResponse, status: number, html: string) =>
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(html);

/** The buyer line at the top of every page. */
const whoLine = (storefront: string, person: SimulatedCustomer | null) =>
  person
    ? `Signed in as ${escape(nameOf(person))} (customer ${escape(person.id)})`
    : `Checking out as a guest · <a href="${escape(`${storefront}/account/login`)}">Sign in</a>`;

const variantsOf = (root: string) =>
  new Map(themeProducts(root).flatMap((product) => product.variants.map((variant) => [String(variant.id), { product, variant }] as const)));

class CheckoutPages {
  private assets: { serviceUrl: string; files: Promise<Record<string, HostedFile>> } | null = null;

  constructor(private readonly options: SimulatedCheckoutOptions) {}

  private get shops() {
    return this.options.shops;
  }

  private assetsFor(serviceUrl: string) {
    if (!this.assets || this.assets.serviceUrl !== serviceUrl) this.assets = { serviceUrl, files: checkoutAssets(serviceUrl) };
    return this.assets.files;
  }

  private customerOf(req: IncomingMessage, shopId: string, query: URLSearchParams) {
    const { shops } = this;
    const asked = query.get('customer_id');
    if (asked !== null) return { asked, customer: CUSTOMER_ID.test(asked) ? (shops.customer(shopId, asked) ?? null) : null };
    const id = cookieValue(req.headers.cookie, STOREFRONT_CUSTOMER_COOKIE);
    return { asked: null, customer: id ? (shops.customer(shopId, id) ?? null) : null };
  }

  /** The cart's lines and codes priced as checkout prices them; a code checkout refuses is a CodeRefused. */
  private priceCart(shopId: string, customer: SimulatedCustomer | null, items: CartItem[], codes: string[]): PricedCart {
    const currency = this.shops.currency(shopId);
    const digits = minorDigits(currency);
    const known = variantsOf(`/storefront/${encodeURIComponent(shopId)}`);
    const lines: PricedLine[] = items.map((item) => {
      const found = known.get(item.variant_id);
      if (!found) throw new BadRequest(`variant: the shop sells no variant ${item.variant_id}`);
      // The theme's prices are in cents; the shop's currency may have other decimals.
      const unit = Math.round((found.variant.price / 100) * 10 ** digits);
      const title = found.product.variants.length > 1 ? `${found.product.title} (${found.variant.title})` : found.product.title;
      return {
        variant_id: item.variant_id,
        title,
        quantity: item.quantity,
        unit_price: unit,
        total: unit * item.quantity,
        allocations: [],
      };
    });
    const subtotal = lines.reduce((sum, line) => sum + line.total, 0);
    const applied: PricedCart['codes'] = [];
    const seen = new Set<string>();
    for (const text of codes) {
      const code = this.options.codes.find(shopId, text.trim());
      if (!code || seen.has(code.code.toLowerCase())) throw new CodeRefused(`Enter a valid discount code (${text} is not one)`);
      seen.add(code.code.toLowerCase());
      this.checkCode(code, text, customer, Math.round(code.minimum_spend * 10 ** digits) > subtotal, currency, digits);
      applied.push(applyCode(code, text, lines, currency, digits));
    }
    const total = lines.reduce((sum, line) => sum + line.total, 0);
    return { currency, digits, lines, codes: applied, subtotal, discount: subtotal - total, total };
  }

  /** Refuses a code not this buyer's, out of its dates, or above the subtotal. */
  private checkCode(
    code: CheckoutCode,
    text: string,
    customer: SimulatedCustomer | null,
    short: boolean,
    currency: string,
    digits: number,
  ) {
    if (code.customer_id !== null && code.customer_id !== customer?.id) throw new CodeRefused(`${text} is not valid for your account`);
    const now = this.options.now().getTime();
    if (code.ends_at && Date.parse(code.ends_at) < now) throw new CodeRefused(`${text} has expired`);
    if (code.starts_at && Date.parse(code.starts_at) > now) throw new CodeRefused(`${text} is not active yet`);
    if (short) {
      const minimum = Math.round(code.minimum_spend * 10 ** digits);
      throw new CodeRefused(`${text} needs a subtotal of at least ${moneyText(minimum, currency)}`);
    }
  }

  private async mint(res: ServerResponse, shopId: string, customerId: string | null) {
    const credentials = this.shops.credentials(shopId);
    if (!credentials) return sendJson(res, 422, { error: `Shop '${shopId}' has no client_id/client_secret` });
    // Checkout mints a token for a guest too, without `sub`.
    sendJson(res, 200, {
      token: await mintSessionToken(credentials, this.shops.identity(shopId).domain, customerId, this.options.realNow()),
    });
  }

  private orderOf(shopId: string, orderId: string): SimulatedOrder | null {
    try {
      const order = this.options.orders.get(orderId);
      return order.shop === shopId ? order : null;
    } catch {
      return null;
    }
  }

  async handle(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean> {
    const match = CHECKOUT_PATH.exec(pathname);
    if (!match) return false;
    const shopId = decodeURIComponent(match[1]!);
    if (!this.shops.has(shopId)) {
      sendJson(res, 404, { error: `The platform simulator has no shop '${shopId}'` });
      return true;
    }
    const root = `/checkout/${encodeURIComponent(shopId)}`;
    const rest = match[2] ?? '';
    const url = new URL(req.url ?? '/', 'http://localhost');
    const serviceUrl = this.options.serviceUrl();
    if (rest.startsWith('/_host/')) return this.serveHostFile(req, res, rest, serviceUrl);

    const { asked, customer } = this.customerOf(req, shopId, url.searchParams);
    const storefront = `/storefront/${encodeURIComponent(shopId)}`;
    const visit: Visit = { shopId, root, storefront, url, serviceUrl, asked, customer, shopName: this.shops.name(shopId) };

    if (rest === '/session-token') {
      if (req.method !== 'POST') return (methodNotAllowed(res, 'POST'), true);
      await this.mint(res, shopId, customer?.id ?? null);
      return true;
    }
    if (rest === '/cart' || rest === '/pay') return this.priceOrPay(req, res, visit, rest);
    const orderPage = ORDER_PAGE.exec(rest);
    if (orderPage) return this.serveOrderPage(req, res, visit, orderPage);
    if (rest !== '' && rest !== '/') return (sendJson(res, 404, { error: 'Not Found' }), true);
    if (req.method !== 'GET' && req.method !== 'HEAD') return (methodNotAllowed(res, 'GET'), true);
    return this.serveCheckoutPage(res, visit);
  }

  private async serveHostFile(req: IncomingMessage, res: ServerResponse, rest: string, serviceUrl: string | null) {
    if (req.method !== 'GET' && req.method !== 'HEAD') return (methodNotAllowed(res, 'GET, HEAD'), true);
    if (!serviceUrl) return (sendJson(res, 503, { error: 'The twin has not started its API yet' }), true);
    const file = (await this.assetsFor(serviceUrl))[rest.slice('/_host/'.length)];
    if (!file) return (sendJson(res, 404, { error: 'Not Found' }), true);
    res.writeHead(200, { 'Content-Type': `${file.type}; charset=utf-8`, 'Cache-Control': 'no-store' }).end(file.body);
    return true;
  }

  /** POST /cart prices the cart; POST /pay also places the order. */
  private async priceOrPay(req: IncomingMessage, res: ServerResponse, visit: Visit, rest: string) {
    const { shopId, asked, customer } = visit;
    if (req.method !== 'POST') return (methodNotAllowed(res, 'POST'), true);
    if (asked !== null && !customer) return (sendJson(res, 404, { error: `The shop has no customer ${asked}` }), true);
    const { items, codes } = await readCart(req);
    let cart: PricedCart;
    try {
      cart = this.priceCart(shopId, customer, items, codes);
    } catch (error) {
      if (error instanceof CodeRefused) return (sendJson(res, 422, { error: error.message }), true);
      throw error;
    }
    if (rest === '/cart') return (sendJson(res, 200, { cart }), true);
    await this.pay(res, visit, cart);
    return true;
  }

  /** The order placed through the simulator with the applied codes, its orders/paid delivered before the answer. */
  private async pay(res: ServerResponse, { shopId, asked, customer, root }: Visit, cart: PricedCart) {
    const order = this.options.orders.create({
      shop: shopId,
      currency: cart.currency,
      customer,
      line_items: cart.lines.map((line) => ({
        price: formatMinorUnits(line.unit_price, cart.currency),
        quantity: line.quantity,
        variant_id: line.variant_id,
        ...(line.allocations.length ? { discount: formatMinorUnits(sumOf(line.allocations), cart.currency) } : {}),
      })),
      discount_codes: cart.codes.map((entry) => entry.code),
      financial_status: 'paid',
    });
    const webhook = await this.options.deliveries.deliver(
      this.shops.identity(shopId),
      'orders/paid',
      restOrderPayload(order),
      String(order.id),
    );
    const query = asked !== null ? `?customer_id=${encodeURIComponent(asked)}` : '';
    sendJson(res, 201, {
      order_id: String(order.id),
      name: order.name,
      webhook,
      thank_you_url: `${root}/thank-you/${order.id}${query}`,
    });
  }

  /** The thank-you and order status pages, and their session tokens. */
  private async serveOrderPage(req: IncomingMessage, res: ServerResponse, visit: Visit, orderPage: RegExpExecArray) {
    const { shopId, root, storefront, shopName, serviceUrl } = visit;
    const [, kind, orderId, token] = orderPage;
    const order = this.orderOf(shopId, orderId!);
    if (!order) return (sendJson(res, 404, { error: `Shop '${shopId}' has no order ${orderId}` }), true);
    // The pages of an order speak for the order's customer (none for a guest's order).
    if (token) {
      if (req.method !== 'POST') return (methodNotAllowed(res, 'POST'), true);
      await this.mint(res, shopId, order.customer?.id ?? null);
      return true;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return (methodNotAllowed(res, 'GET'), true);
    if (!serviceUrl) return (sendHtml(res, 503, STARTING_PAGE), true);
    const cart = orderCart(order);
    const thankYou = kind === 'thank-you';
    const state = {
      cart,
      items: [],
      customerId: order.customer?.id ?? null,
      shopName,
      shopDomain: this.shops.identity(shopId).domain,
      storefrontPath: storefront,
      sessionTokenPath: `${root}/orders/${order.id}/session-token`,
      order: {
        id: String(order.id),
        name: order.name,
        confirmation: `C${order.id}`,
        processedAt: order.processedAt,
        cancelledAt: order.cancelledAt,
      },
    };
    sendHtml(
      res,
      200,
      page({
        shopName,
        title: thankYou ? 'Thank you' : `Order ${order.name}`,
        who: whoLine(storefront, order.customer),
        main: orderPageMain(order, cart, thankYou, root, storefront),
        target: thankYou ? THANK_YOU_TARGET : ORDER_STATUS_TARGET,
        state,
        scripts: [`${root}/_host/host.js`],
      }),
    );
    return true;
  }

  /** The checkout of `?variant=&quantity=`, or the page saying why there is none. */
  private serveCheckoutPage(res: ServerResponse, visit: Visit) {
    const { shopId, root, storefront, shopName, serviceUrl, url, asked, customer } = visit;
    const who = (person: SimulatedCustomer | null) => whoLine(storefront, person);
    const refuse = (status: number, title: string, main: string, person: SimulatedCustomer | null) => {
      sendHtml(res, status, page({ shopName, title, who: who(person), main, single: true, target: null, state: null, scripts: [] }));
      return true;
    };
    if (!this.shops.credentials(shopId)) {
      const main = `<div class="panel"><h1>No checkout extensions</h1><p>Shop ${escape(shopId)} has no app client id and secret in the configuration, so the app's extensions are not installed on it (docs/configuration.md).</p></div>`;
      return refuse(409, 'No extensions', main, customer);
    }
    if (asked !== null && !customer) {
      const main = `<div class="panel"><h1>No such customer</h1><p role="alert">The shop has no customer ${escape(asked)}.</p></div>`;
      return refuse(404, 'No such customer', main, null);
    }
    let cart: PricedCart;
    let items: CartItem[];
    try {
      items = [{ variant_id: url.searchParams.get('variant') ?? '41002', quantity: quantityOf(url.searchParams.get('quantity')) }];
      cart = this.priceCart(shopId, customer, items, []);
    } catch (error) {
      if (!(error instanceof BadRequest)) throw error;
      const main = `<div class="panel"><h1>This cart cannot be checked out</h1><p role="alert">${escape(error.message)}</p><p><a href="${escape(`${storefront}/`)}">Back to the shop</a></p></div>`;
      return refuse(400, 'Cart', main, customer);
    }
    if (!serviceUrl) return (sendHtml(res, 503, STARTING_PAGE), true);
    // `?plan=basic` plays a shop without Shopify Plus: the block beside the discount field is not rendered.
    const plus = url.searchParams.get('plan') !== 'basic';
    const state = {
      plus,
      cart,
      items,
      customerId: customer?.id ?? null,
      shopName,
      shopDomain: this.shops.identity(shopId).domain,
      storefrontPath: storefront,
      sessionTokenPath: `${root}/session-token`,
    };
    sendHtml(
      res,
      200,
      page({
        shopName,
        title: 'Checkout',
        who: who(customer),
        main: checkoutMain(cart),
        target: REDUCTIONS_TARGET,
        state,
        scripts: [`${root}/_host/host.js`],
      }),
    );
    return true;
  }
}

type CheckoutCode = NonNullable<ReturnType<SimulatedDiscountCodes['find']>>;

/** Allocates one accepted code over the lines; its label for the cart. */
function applyCode(code: CheckoutCode, text: string, lines: PricedLine[], currency: string, digits: number) {
  const left = (line: PricedLine) => line.total;
  if (code.kind === 'free_product') {
    const line = lines.find((entry) => entry.variant_id === code.product_variant_id);
    if (!line) throw new CodeRefused(`${text} needs its free item in the cart`);
    allocate([line], Math.min(line.unit_price, Math.round(code.amount * 10 ** digits), left(line)), code.code);
    return { code: code.code, label: 'Free item' };
  }
  if (code.kind === 'free_shipping') return { code: code.code, label: 'Free shipping' };
  if (code.type === 'percentage') {
    for (const line of lines) allocate([line], Math.round((left(line) * code.amount) / 100), code.code);
    return { code: code.code, label: `${code.amount}% off` };
  }
  const amount = Math.min(
    Math.round(code.amount * 10 ** digits),
    lines.reduce((sum, line) => sum + left(line), 0),
  );
  allocate(lines, amount, code.code);
  return { code: code.code, label: `${moneyText(Math.round(code.amount * 10 ** digits), currency)} off` };
}

async function readCart(req: IncomingMessage) {
  const body = (await readJson(req)) as { items?: unknown; codes?: unknown };
  const items = parseItems(body.items);
  if (!Array.isArray(body.codes) || body.codes.some((code) => typeof code !== 'string' || code.trim() === '')) {
    throw new BadRequest('codes: must be a list of discount codes');
  }
  return { items, codes: body.codes as string[] };
}

/** The order's lines as the thank-you and order status pages' APIs give them. */
function orderCart(order: SimulatedOrder): PricedCart {
  const digits = minorDigits(order.currency);
  const known = variantsOf(`/storefront/${encodeURIComponent(order.shop)}`);
  const lines = order.lines.map((line) => {
    const found = line.variantId ? known.get(line.variantId) : undefined;
    return {
      variant_id: line.variantId ?? String(line.id),
      title: found ? found.product.title : 'Item',
      quantity: line.quantity,
      unit_price: line.price,
      total: line.price * line.quantity - line.discount,
      allocations: line.discount ? [{ code: order.discountCodes.join(', ') || 'discount', amount: line.discount }] : [],
    };
  });
  const subtotal = lines.reduce((sum, line) => sum + line.unit_price * line.quantity, 0);
  const total = lines.reduce((sum, line) => sum + line.total, 0);
  return {
    currency: order.currency,
    digits,
    lines,
    codes: order.discountCodes.map((code) => ({ code, label: 'Applied' })),
    subtotal,
    discount: subtotal - total,
    total,
  };
}

function orderPageMain(order: SimulatedOrder, cart: PricedCart, thankYou: boolean, root: string, storefront: string): string {
  const format = (minor: number) => escape(moneyText(minor, order.currency));
  const rows = cart.lines
    .map((line) => `<tr><td>${escape(line.title)} × ${line.quantity}</td><td class="amount">${format(line.total)}</td></tr>`)
    .join('');
  return `<div>
<h1>${thankYou ? `Thank you${order.customer ? `, ${escape(order.customer.first_name)}` : ''}!` : `Order ${escape(order.name)}`}</h1>
<p>${thankYou ? `Your order ${escape(order.name)} is confirmed.` : `Placed ${escape(new Date(order.processedAt).toUTCString())}${order.cancelledAt ? ' · cancelled' : ''}.`}</p>
<div class="panel"><div id="extension-root"></div></div>
</div>
<aside class="panel" aria-label="Order summary"><h2>Order summary</h2>
<table><caption class="note">Items</caption><thead><tr><th>Item</th><th class="amount">Amount</th></tr></thead><tbody>${rows}</tbody></table>
<p>Codes: ${cart.codes.length ? cart.codes.map((entry) => escape(entry.code)).join(', ') : 'none'}</p>
<p class="total">Paid ${format(cart.total)}</p>
<p>${thankYou ? `<a href="${escape(`${root}/orders/${order.id}`)}">Order status page</a> · ` : ''}<a href="${escape(`${storefront}/`)}">Continue shopping</a></p>
</aside>`;
}

function checkoutMain(cart: PricedCart): string {
  const rows = cart.lines
    .map(
      (line) =>
        `<tr><td>${escape(line.title)} × ${line.quantity}</td><td class="amount">${escape(moneyText(line.unit_price * line.quantity, cart.currency))}</td></tr>`,
    )
    .join('');
  return `<div class="panel">
<h1>Checkout</h1>
<p>Shopify's contact, delivery and payment steps are not simulated: this cart pays at once.</p>
<button type="button" class="pay" id="pay">Pay now</button>
<p id="pay-message" role="alert"></p>
</div>
<aside class="panel" aria-label="Order summary">
<h2>Order summary</h2>
<table><caption class="note">Items</caption><thead><tr><th>Item</th><th class="amount">Amount</th></tr></thead><tbody>${rows}</tbody></table>
<form class="discount" id="discount-form"><label>Discount code<input id="discount-code" name="code" autocomplete="off"></label><button type="submit">Apply</button></form>
<p id="discount-message" role="status" class="note"></p>
<div id="extension-root"></div>
<section aria-labelledby="codes-heading"><h2 id="codes-heading">Applied codes</h2><p id="codes-none" class="note">No code applied.</p><ul class="codes" id="applied-codes"></ul></section>
<table><caption class="note">Totals</caption><tbody>
<tr><th scope="row">Subtotal</th><td class="amount" id="subtotal"></td></tr>
<tr><th scope="row">Discount</th><td class="amount" id="discount"></td></tr>
<tr><th scope="row" class="total">Total</th><td class="amount total" id="total"></td></tr>
</tbody></table>
</aside>`;
}

/** Spreads `amount` over `lines` in proportion to what each has left, the remainder on the first lines. */
function allocate(lines: PricedLine[], amount: number, code: string): void {
  const left = lines.reduce((sum, line) => sum + line.total, 0);
  if (amount <= 0 || left <= 0) return;
  let given = 0;
  const shares = lines.map((line) => {
    const share = Math.floor((amount * line.total) / left);
    given += share;
    return share;
  });
  for (let index = 0; given < amount && index < lines.length; index++) {
    if (shares[index]! < lines[index]!.total) {
      shares[index]! += 1;
      given += 1;
    }
  }
  lines.forEach((line, index) => {
    const share = Math.min(shares[index]!, line.total);
    if (share <= 0) return;
    line.total -= share;
    line.allocations.push({ code, amount: share });
  });
}

const sumOf = (allocations: Array<{ amount: number }>) => allocations.reduce((sum, entry) => sum + entry.amount, 0);

function quantityOf(text: string | null): number {
  if (text === null) return 1;
  const quantity = Number(text);
  if (!Number.isInteger(quantity) || quantity < 1 || quantity > MAX_QUANTITY) {
    throw new BadRequest(`quantity: must be a whole number from 1 to ${MAX_QUANTITY}, got '${text}'`);
  }
  return quantity;
}

function parseItems(value: unknown): CartItem[] {
  if (!Array.isArray(value) || value.length === 0) throw new BadRequest('items: must hold at least one { variant_id, quantity }');
  return value.map((entry: unknown, index) => {
    const item = entry as { variant_id?: unknown; quantity?: unknown };
    if (typeof item.variant_id !== 'string' || !/^\d{1,20}$/.test(item.variant_id))
      throw new BadRequest(`items[${index}].variant_id: must be a numeric id`);
    return { variant_id: item.variant_id, quantity: quantityOf(String(item.quantity)) };
  });
}
