// The shop counter Shopify POS plays for each simulated shop, with the app's POS UI extension installed
// (docs/pos.md#the-twins-pos-page): `GET /pos/{shop id}/?user_id=42` is a POS screen for staff user 42 with the
// storefront's products to add to a cart, a customer to attach (a search of the platform's customers), the cart's
// code discounts, the smart grid with the extension's home tile, the customer details screen (its block and menu
// item) and the extension's modals. The extension is its REAL bundle, one per target, built from
// infra/shopify-app/extensions/loyalty-pos as Shopify's CLI builds it, calling the twin's /admin/api; Shopify's part
// is played here: the `shopify` global each target reads (a session token minted in the admin format for the staff
// user, signed with the shop's client secret; the cart with its customer and codes; the customer of the details
// screen; presentModal; i18n over the extension's own locale; a toast) and STAND-IN Polaris components
// (polaris-stand-ins.ts), not POS's native renderer. "Charge" places the cart's order through the simulator's order
// controls with `source_name` `pos` and the till's location, device and staff user, its codes taking their amounts
// off the lines; its webhook goes out as for any order.
import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { z } from 'zod';
import { bundlePosExtension, POS_EXTENSION_DIR, POS_TARGETS } from '../../../scripts/account-extension-bundle';
import { formatMinorUnits, minorDigits } from '../../../shared/domain/money';
import { sendJson } from '../http-server';
import { POLARIS_STAND_INS, type HostedFile } from './simulated-customer-account';
import type { SimulatedDiscountCode } from './simulated-discount-codes';
import type { SimulatedCustomer } from './simulated-orders';
import type { SimulatedShops } from './simulated-shops';
import { BadRequest, methodNotAllowed, parseWith, readJson } from './simulator-http';
import type { OrderControls } from './simulator-order-controls';
import { themeProducts } from './storefront-theme';
import { mintIdToken } from './shopify-tokens';

const POS_PATH = /^\/pos\/([^/]+)(\/.*)?$/;
const STAFF_USER_ID = /^\d{1,20}$/;
/** The staff user a page without `?user_id=` is signed in as. */
export const DEFAULT_POS_USER = '1';
/** The till's location and device, as the simulator's POS orders name them. */
const TILL = { locationId: 1, deviceId: 1 } as const;

type PosTarget = (typeof POS_TARGETS)[number]['target'];
/** Each target's bundle, served by this name. */
const BUNDLE_FILES: Record<PosTarget, string> = {
  'pos.home.tile.render': 'home-tile.js',
  'pos.home.modal.render': 'home-modal.js',
  'pos.customer-details.block.render': 'customer-block.js',
  'pos.customer-details.action.menu-item.render': 'customer-menu-item.js',
  'pos.customer-details.action.render': 'customer-action.js',
};

/**
 * The host's script: the cart, the customer search, the customer details screen and the modals, and one
 * `shopify` object per target (the APIs of that target), which the target's bundle reads as its own module's
 * `shopify` (the server puts `const shopify = globalThis.__posTargets[target]` before each bundle).
 */
export const POS_HOST_SCRIPT = `
const here = (name) => new URL(name, import.meta.url).toString();
const page = document.documentElement.dataset;
const query = '?user_id=' + encodeURIComponent(page.userId);
const currency = page.currency;
const digits = Number(page.digits);
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
const money = (minor) => new Intl.NumberFormat('en', { style: 'currency', currency }).format(minor / 10 ** digits);
const products = JSON.parse(document.getElementById('products').textContent);

// The cart, as POS's Cart API shows it (a signal: value and subscribe).
const state = { lines: [], customer: null, codes: [] };
const listeners = new Set();
function cartValue() {
  const subtotal = state.lines.reduce((sum, line) => sum + line.price * line.quantity, 0);
  const discounts = codeAmounts(subtotal);
  return {
    editable: true,
    subtotal: (subtotal / 10 ** digits).toFixed(digits),
    taxTotal: (0).toFixed(digits),
    grandTotal: ((subtotal - discounts.reduce((sum, entry) => sum + entry.minor, 0)) / 10 ** digits).toFixed(digits),
    cartDiscounts: state.codes.map((code, index) => ({ type: 'Code', discountDescription: code.code, amount: discounts[index].minor / 10 ** digits, currency })),
    cartDiscount: state.codes.length ? { type: 'Code', discountDescription: state.codes[0].code, amount: discounts[0].minor / 10 ** digits } : undefined,
    customer: state.customer ? { id: Number(state.customer.id) } : undefined,
    lineItems: state.lines.map((line) => ({ uuid: line.uuid, variantId: line.variantId, quantity: line.quantity, price: line.price / 10 ** digits, title: line.title, discounts: [], taxable: false, taxLines: [], properties: {}, isGiftCard: false })),
    properties: {},
  };
}
/** What each code takes, in order: a fixed amount or a percentage of what is left, never below zero. */
function codeAmounts(subtotal) {
  let left = subtotal;
  return state.codes.map((code) => {
    const minor = code.type === 'percentage' ? Math.round((subtotal * code.amount) / 100) : code.kind === 'fixed' ? Math.round(code.amount * 10 ** digits) : 0;
    const taken = Math.min(left, minor);
    left -= taken;
    return { code: code.code, minor: taken };
  });
}
const cart = {
  current: {
    get value() { return cartValue(); },
    subscribe(fn) { listeners.add(fn); return () => listeners.delete(fn); },
  },
  async addCartCodeDiscount(code) {
    if (state.codes.some((entry) => entry.code.toUpperCase() === code.toUpperCase())) return;
    const response = await fetch(new URL('codes/' + encodeURIComponent(code) + query, location.href));
    if (!response.ok) throw new Error('The code ' + code + ' is not a discount of this shop');
    state.codes.push(await response.json());
    changed();
  },
  async removeCartDiscount() { state.codes.shift(); changed(); },
  async removeAllDiscounts() { state.codes = []; changed(); },
  async setCustomer(customer) { await attach(String(customer.id)); },
  async removeCustomer() { state.customer = null; changed(); },
  async addLineItem(variantId, quantity) { add(String(variantId), quantity); return state.lines.at(-1).uuid; },
};
function changed() {
  renderCart();
  const value = cartValue();
  for (const listener of [...listeners]) listener(value);
}

const toast = document.getElementById('toast');
let toastTimer;
const session = {
  currentSession: { shopId: 1, userId: Number(page.userId), shopDomain: page.shopDomain, locationId: ${TILL.locationId}, currency, posVersion: 'twin' },
  // POS mints the staff member's token; the extension only asks for it.
  getSessionToken: async () => {
    const response = await fetch(new URL('session-token' + query, location.href), { method: 'POST' });
    if (!response.ok) return undefined;
    return (await response.json()).token;
  },
};
const common = () => ({
  session,
  cart,
  i18n: {
    translate,
    formatNumber: (number, options) => new Intl.NumberFormat('en', options).format(number),
    formatCurrency: (number, options) => new Intl.NumberFormat('en', { style: 'currency', currency, ...options }).format(number),
    formatDate: (date, options) => new Intl.DateTimeFormat('en', options).format(date),
  },
  toast: {
    show(text) {
      toast.textContent = text;
      clearTimeout(toastTimer);
      toastTimer = setTimeout(() => (toast.textContent = ''), 6000);
    },
  },
  locale: { current: { value: 'en' } },
});
// The customer whose details screen is open.
let viewed = null;
const viewedCustomer = { get id() { return viewed === null ? undefined : Number(viewed); } };
globalThis.__posTargets = {
  'pos.home.tile.render': { ...common(), extension: { target: 'pos.home.tile.render' }, action: { presentModal: () => openModal('pos.home.modal.render') } },
  'pos.home.modal.render': { ...common(), extension: { target: 'pos.home.modal.render' } },
  'pos.customer-details.block.render': { ...common(), extension: { target: 'pos.customer-details.block.render' }, customer: viewedCustomer, action: { presentModal: () => openModal('pos.customer-details.action.render') } },
  'pos.customer-details.action.menu-item.render': { ...common(), extension: { target: 'pos.customer-details.action.menu-item.render' }, customer: viewedCustomer, action: { presentModal: () => openModal('pos.customer-details.action.render') } },
  'pos.customer-details.action.render': { ...common(), extension: { target: 'pos.customer-details.action.render' }, customer: viewedCustomer },
};
const FILES = ${JSON.stringify(BUNDLE_FILES)};

/** Renders a target into a fresh region: the bundle renders into document.body, which is the region meanwhile. */
async function mount(target, holder) {
  const region = document.createElement('div');
  region.className = 'extension';
  region.dataset.target = target;
  holder.replaceChildren(region);
  const extension = await import(here(FILES[target]));
  Object.defineProperty(document, 'body', { configurable: true, get: () => region });
  try {
    await extension.default();
  } finally {
    delete document.body;
  }
  return region;
}

const modal = document.getElementById('pos-modal');
async function openModal(target) {
  modal.dataset.target = target;
  if (!modal.open) modal.showModal();
  await mount(target, document.getElementById('modal-region'));
}
modal.addEventListener('close', () => {
  document.getElementById('modal-region').replaceChildren();
  delete modal.dataset.target;
  // A customer action closes into the customer details screen, refreshed as POS does.
  if (customerScreen.open) showCustomerScreen();
});
document.getElementById('close-modal').addEventListener('click', () => modal.close());

const customerScreen = document.getElementById('customer-screen');
async function showCustomerScreen() {
  viewed = state.customer.id;
  document.getElementById('customer-screen-name').textContent = state.customer.name + ' (customer ' + state.customer.id + ')';
  if (!customerScreen.open) customerScreen.showModal();
  await mount('pos.customer-details.block.render', document.getElementById('customer-block-region'));
  await mount('pos.customer-details.action.menu-item.render', document.getElementById('customer-menu-region'));
}
document.getElementById('close-customer').addEventListener('click', () => customerScreen.close());
customerScreen.addEventListener('close', () => { viewed = null; });

let uuid = 0;
function add(variantId, quantity = 1) {
  const product = products.find((entry) => String(entry.variantId) === variantId);
  const line = state.lines.find((entry) => entry.variantId === product.variantId);
  if (line) line.quantity += quantity;
  else state.lines.push({ uuid: 'line-' + ++uuid, variantId: product.variantId, title: product.title, price: product.price, quantity });
  changed();
}
document.getElementById('products-list').addEventListener('click', (event) => {
  const button = event.target.closest('button[data-variant]');
  if (button) add(button.dataset.variant);
});

async function attach(customerId) {
  const response = await fetch(new URL('customers/' + encodeURIComponent(customerId) + query, location.href));
  if (!response.ok) throw new Error('No customer ' + customerId);
  state.customer = await response.json();
  document.getElementById('customer-results').replaceChildren();
  changed();
}
document.getElementById('customer-search').addEventListener('submit', async (event) => {
  event.preventDefault();
  const text = document.getElementById('customer-query').value.trim();
  const list = document.getElementById('customer-results');
  if (!text) return;
  const found = await (await fetch(new URL('customers' + query + '&q=' + encodeURIComponent(text), location.href))).json();
  list.replaceChildren(...(found.customers.length ? found.customers.map((customer) => {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = 'Attach ' + customer.name + (customer.email ? ' (' + customer.email + ')' : '');
    button.addEventListener('click', () => attach(customer.id).then(() => document.getElementById('cart-customer-name').focus()));
    item.append(button);
    return item;
  }) : [Object.assign(document.createElement('li'), { textContent: 'No customer found.' })]));
});

function renderCart() {
  const value = cartValue();
  const lines = document.getElementById('cart-lines');
  lines.replaceChildren(...state.lines.map((line) => {
    const item = document.createElement('li');
    item.textContent = line.title + ' × ' + line.quantity + ': ' + money(line.price * line.quantity) + ' ';
    const remove = document.createElement('button');
    remove.type = 'button';
    remove.textContent = 'Remove ' + line.title;
    remove.addEventListener('click', () => { state.lines = state.lines.filter((entry) => entry !== line); changed(); });
    item.append(remove);
    return item;
  }));
  document.getElementById('cart-empty').hidden = state.lines.length > 0;
  const name = document.getElementById('cart-customer-name');
  name.textContent = state.customer ? state.customer.name + (state.customer.email ? ' (' + state.customer.email + ')' : ' (no e-mail)') : 'No customer';
  document.getElementById('customer-actions').hidden = !state.customer;
  const amounts = codeAmounts(state.lines.reduce((sum, line) => sum + line.price * line.quantity, 0));
  document.getElementById('cart-codes').replaceChildren(...amounts.map((entry) => Object.assign(document.createElement('li'), { textContent: 'Code ' + entry.code + ': −' + money(entry.minor) })));
  document.getElementById('cart-codes-empty').hidden = amounts.length > 0;
  document.getElementById('cart-subtotal').textContent = money(Math.round(Number(value.subtotal) * 10 ** digits));
  document.getElementById('cart-total').textContent = money(Math.round(Number(value.grandTotal) * 10 ** digits));
  const charge = document.getElementById('charge');
  charge.disabled = state.lines.length === 0;
  charge.textContent = 'Charge ' + money(Math.round(Number(value.grandTotal) * 10 ** digits));
}
document.getElementById('remove-customer').addEventListener('click', () => cart.removeCustomer());
document.getElementById('open-customer').addEventListener('click', () => showCustomerScreen());
document.getElementById('charge').addEventListener('click', async () => {
  const status = document.getElementById('charge-status');
  status.textContent = 'Charging…';
  const response = await fetch(new URL('charge' + query, location.href), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      customer_id: state.customer ? state.customer.id : null,
      lines: state.lines.map((line) => ({ variant_id: String(line.variantId), quantity: line.quantity })),
      codes: state.codes.map((code) => code.code),
    }),
  });
  const answer = await response.json();
  if (!response.ok) { status.textContent = 'Not charged: ' + answer.error; return; }
  status.textContent = 'Order ' + answer.order.name + ' charged: ' + money(Math.round(Number(answer.order.total_price) * 10 ** digits)) + (answer.webhook ? '; its webhook answered ' + answer.webhook.status + '.' : '.');
  state.lines = [];
  state.codes = [];
  state.customer = null;
  changed();
});

renderCart();
await mount('pos.home.tile.render', document.getElementById('tile-region'));
document.documentElement.dataset.extensionStarted = 'true';
`;

/**
 * The host's assets, by name: its script, the stand-ins, each target's bundle calling `serviceUrl` (the twin's
 * API) whatever src/service-url.ts holds, with the target's `shopify` put before it, and the English locale.
 */
export async function posAssets(serviceUrl: string): Promise<Record<string, HostedFile>> {
  const [bundles, standIns, locale] = await Promise.all([
    bundlePosExtension({ serviceUrl }),
    build({ entryPoints: [POLARIS_STAND_INS], bundle: true, format: 'esm', write: false, logLevel: 'silent' }),
    readFile(join(POS_EXTENSION_DIR, 'locales', 'en.default.json')),
  ]);
  const files: Record<string, HostedFile> = {
    'host.js': { type: 'text/javascript', body: POS_HOST_SCRIPT },
    'polaris-stand-ins.js': { type: 'text/javascript', body: standIns.outputFiles[0]!.text },
    'locale.json': { type: 'application/json', body: locale },
  };
  for (const bundle of bundles) {
    const target = bundle.target as PosTarget;
    files[BUNDLE_FILES[target]] = {
      type: 'text/javascript',
      body: `const shopify = globalThis.__posTargets[${JSON.stringify(target)}];\n${bundle.code}`,
    };
  }
  return files;
}

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character]!);

const STYLE = `
:root { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1a1a1a; }
[hidden] { display: none !important; }
body { margin: 0; background: #e9ecef; }
.pos-header { background: #1a1a1a; color: #fff; }
.pos-header .bar { max-width: 76rem; margin: 0 auto; padding: .75rem 1rem; display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: center; }
.pos-header .shop { font-weight: 650; font-size: 1.1rem; margin-right: auto; }
.pos-main { max-width: 76rem; margin: 0 auto; padding: 1rem; display: grid; grid-template-columns: minmax(0, 2fr) minmax(0, 1.2fr); gap: 1rem; }
.panel { background: #fff; border-radius: .75rem; padding: 1rem 1.25rem; }
.panel h2 { font-size: 1.15rem; margin: 0 0 .75rem; }
.panel h3 { font-size: 1rem; margin: 1rem 0 .5rem; }
ul.plain { list-style: none; padding: 0; margin: 0; display: flex; flex-direction: column; gap: .5rem; }
ul.products { list-style: none; padding: 0; margin: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(11rem, 1fr)); gap: .5rem; }
button { font: inherit; border-radius: .5rem; padding: .45rem .9rem; border: 1px solid #6b6b6b; background: #fff; color: #1a1a1a; cursor: pointer; }
button.primary { background: #1a1a1a; color: #fff; border-color: #1a1a1a; font-weight: 600; }
button:disabled { background: #ebebeb; color: #4a4a4a; border-color: #b5b5b5; cursor: default; }
button:focus-visible, input:focus-visible { outline: 3px solid #005bd3; outline-offset: 2px; }
ul.products button { width: 100%; text-align: left; min-height: 3.5rem; }
input { font: inherit; padding: .45rem .6rem; border: 1px solid #6b6b6b; border-radius: .5rem; }
.totals { display: grid; grid-template-columns: auto auto; gap: .25rem 1rem; justify-content: start; margin: 1rem 0; }
.totals dt { color: #4a4a4a; }
.totals dd { margin: 0; font-weight: 600; }
.stack { display: flex; flex-direction: column; gap: .5rem; }
.inline { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
.twin-note { max-width: 76rem; margin: 0 auto; padding: 0 1rem 2rem; color: #4a4a4a; font-size: .85rem; }
dialog { border: none; border-radius: .75rem; padding: 0; width: min(44rem, 96vw); max-height: 92vh; background: #f1f1f1; }
dialog::backdrop { background: rgb(0 0 0 / 45%); }
dialog .dialog-bar { display: flex; justify-content: space-between; align-items: center; gap: 1rem; padding: .6rem 1rem; background: #fff; border-bottom: 1px solid #dedede; position: sticky; top: 0; z-index: 1; }
dialog .dialog-body { padding: 1rem; display: flex; flex-direction: column; gap: 1rem; }
#toast { position: fixed; bottom: 1rem; left: 50%; transform: translateX(-50%); background: #1a1a1a; color: #fff; border-radius: .5rem; padding: .5rem 1rem; }
#toast:empty { display: none; }
@media (max-width: 48rem) { .pos-main { grid-template-columns: 1fr; } }
`;

const NOTE =
  'Local twin: this page plays Shopify POS. The loyalty tile, block, menu item and modals are the app’s real POS extension bundles; ' +
  'their components are stand-ins for POS’s, which POS draws natively with its own look (docs/pos.md).';

interface PosProduct {
  variantId: number;
  title: string;
  price: number;
}

/** The storefront's catalog as the till sells it: one entry per available variant. */
function posProducts(): PosProduct[] {
  return themeProducts('').flatMap((product) =>
    product.variants
      .filter((variant) => variant.available)
      .map((variant) => ({
        variantId: variant.id,
        title: product.variants.length > 1 ? `${product.title}, ${variant.title}` : product.title,
        price: variant.price,
      })),
  );
}

function posPage(shop: { id: string; name: string; domain: string; currency: string }, userId: string, root: string): string {
  const products = posProducts();
  const digits = minorDigits(shop.currency);
  const money = (minor: number) => new Intl.NumberFormat('en', { style: 'currency', currency: shop.currency }).format(minor / 10 ** digits);
  const productItems = products
    .map(
      (product) =>
        `<li><button type="button" data-variant="${product.variantId}">Add ${escape(product.title)}<br><span>${escape(money(product.price))}</span></button></li>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en" data-user-id="${escape(userId)}" data-currency="${escape(shop.currency)}" data-digits="${digits}" data-shop-domain="${escape(shop.domain)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>POS · ${escape(shop.name)}</title>
<style>${STYLE}</style>
<script type="module" src="${escape(root)}/_host/polaris-stand-ins.js"></script>
<script type="module" src="${escape(root)}/_host/host.js"></script>
</head>
<body>
<header class="pos-header"><div class="bar"><span class="shop">${escape(shop.name)} · Shopify POS</span><span>Staff user ${escape(userId)} · location ${TILL.locationId}</span></div></header>
<main class="pos-main">
<h1 style="position:absolute;left:-9999px">Point of sale</h1>
<div class="stack">
<section class="panel" aria-labelledby="grid-heading"><h2 id="grid-heading">Smart grid</h2><div id="tile-region"></div></section>
<section class="panel" aria-labelledby="products-heading"><h2 id="products-heading">Products</h2><ul class="products" id="products-list">${productItems}</ul></section>
</div>
<section class="panel" aria-labelledby="cart-heading">
<h2 id="cart-heading">Cart</h2>
<p id="cart-empty">The cart is empty.</p>
<ul class="plain" id="cart-lines"></ul>
<h3>Customer</h3>
<p id="cart-customer-name" tabindex="-1">No customer</p>
<div class="inline" id="customer-actions" hidden><button type="button" id="open-customer">Customer details</button><button type="button" id="remove-customer">Remove customer</button></div>
<form id="customer-search" class="inline" role="search" aria-label="Cart customer search">
<label for="customer-query">Find a customer</label><input id="customer-query" type="search" autocomplete="off"><button type="submit">Search</button>
</form>
<ul class="plain" id="customer-results" aria-label="Customers found"></ul>
<h3>Discounts</h3>
<p id="cart-codes-empty">No discount.</p>
<ul class="plain" id="cart-codes" aria-label="Discount codes in the cart"></ul>
<dl class="totals"><dt>Subtotal</dt><dd id="cart-subtotal"></dd><dt>Total</dt><dd id="cart-total"></dd></dl>
<button type="button" class="primary" id="charge" disabled>Charge</button>
<p role="status" id="charge-status"></p>
</section>
</main>
<footer class="twin-note"><p>${escape(NOTE)}</p></footer>
<dialog id="pos-modal" aria-label="Loyalty app"><div class="dialog-bar"><span>Loyalty app</span><button type="button" id="close-modal">Close</button></div><div class="dialog-body" id="modal-region"></div></dialog>
<dialog id="customer-screen" aria-labelledby="customer-screen-heading"><div class="dialog-bar"><h2 id="customer-screen-heading" style="margin:0;font-size:1.1rem">Customer details</h2><button type="button" id="close-customer">Close</button></div>
<div class="dialog-body"><p id="customer-screen-name"></p><div id="customer-block-region"></div><div id="customer-menu-region"></div></div></dialog>
<div id="toast" role="status" aria-live="polite"></div>
<script type="application/json" id="products">${JSON.stringify(products).replace(/</g, '\\u003c')}</script>
</body>
</html>`;
}

const chargeSchema = z.strictObject({
  customer_id: z
    .string()
    .regex(/^\d{1,20}$/, 'must be a numeric customer id')
    .nullable(),
  lines: z
    .array(z.strictObject({ variant_id: z.string().regex(/^\d{1,20}$/), quantity: z.number().int().min(1).max(1000) }))
    .min(1, 'the cart is empty'),
  codes: z.array(z.string().min(1)).max(10),
});

export interface SimulatedPosOptions {
  shops: SimulatedShops;
  /** The twin's API the extension calls (`{api}`); null until the twin sets it (the page answers 503). */
  serviceUrl: () => string | null;
  /** Real time in ms: session tokens expire by it, never by the domain clock. */
  realNow: () => number;
  /** The shop's discount code of this text, as the simulator holds it. */
  code: (shopId: string, code: string) => SimulatedDiscountCode | undefined;
  orders: OrderControls;
}

export interface SimulatedPos {
  /** Handles /pos/...; false for any other path. */
  handle(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean>;
}

const customerView = (customer: SimulatedCustomer) => ({
  id: customer.id,
  name: [customer.first_name, customer.last_name].filter((part) => part).join(' ') || customer.email || `Customer ${customer.id}`,
  email: customer.email || null,
});

/** Each line's share of the cart's code discounts (minor units), the last line taking what rounding leaves. */
function allocate(lineTotals: number[], discount: number): number[] {
  const subtotal = lineTotals.reduce((sum, total) => sum + total, 0);
  let left = Math.min(discount, subtotal);
  return lineTotals.map((total, index) => {
    const share = index === lineTotals.length - 1 ? left : Math.min(left, Math.floor((discount * total) / Math.max(subtotal, 1)));
    left -= share;
    return share;
  });
}

export function createSimulatedPos(options: SimulatedPosOptions): SimulatedPos {
  const pos = new PosPages(options);
  return { handle: (req, res, pathname) => pos.handle(req, res, pathname) };
}

const sendPosHtml = (res: ServerResponse, status: number, html: string) =>
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(html);

/** One request's shop, staff user and paths, read once by `handle`. */
interface PosVisit {
  shopId: string;
  root: string;
  rest: string;
  url: URL;
  serviceUrl: string | null;
  userId: string;
}

class PosPages {
  private assets: { serviceUrl: string; files: Promise<Record<string, HostedFile>> } | null = null;

  constructor(private readonly options: SimulatedPosOptions) {}

  private assetsFor(serviceUrl: string) {
    if (!this.assets || this.assets.serviceUrl !== serviceUrl) this.assets = { serviceUrl, files: posAssets(serviceUrl) };
    return this.assets.files;
  }

  /** The cart's order as `POST /_orders` takes it: the catalog's prices, the codes' amounts off the lines. */
  private orderBody(shopId: string, userId: string, body: z.infer<typeof chargeSchema>) {
    const catalog = posProducts();
    const currency = this.options.shops.currency(shopId);
    const digits = minorDigits(currency);
    const lines = body.lines.map((line) => {
      const product = catalog.find((entry) => String(entry.variantId) === line.variant_id);
      if (!product) throw new BadRequest(`lines: no product variant ${line.variant_id} in the catalog`);
      return { ...line, price: product.price };
    });
    const subtotal = lines.reduce((sum, line) => sum + line.price * line.quantity, 0);
    let left = subtotal;
    for (const text of body.codes) {
      const code = this.options.code(shopId, text);
      if (!code) throw new BadRequest(`codes: '${text}' is not a discount code of shop '${shopId}'`);
      const minor =
        code.type === 'percentage'
          ? Math.round((subtotal * code.amount) / 100)
          : code.kind === 'fixed'
            ? Math.round(code.amount * 10 ** digits)
            : 0;
      left -= Math.min(left, minor);
    }
    const shares = allocate(
      lines.map((line) => line.price * line.quantity),
      subtotal - left,
    );
    return {
      shop: shopId,
      customer_id: body.customer_id,
      line_items: lines.map((line, index) => ({
        price: formatMinorUnits(line.price, currency),
        quantity: line.quantity,
        variant_id: line.variant_id,
        ...(shares[index]! > 0 ? { discount: formatMinorUnits(shares[index]!, currency) } : {}),
      })),
      discount_codes: body.codes,
      source_name: 'pos',
      location_id: TILL.locationId,
      device_id: TILL.deviceId,
      user_id: Number(userId),
    };
  }

  async handle(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean> {
    const match = POS_PATH.exec(pathname);
    if (!match) return false;
    const shopId = decodeURIComponent(match[1]!);
    if (!this.options.shops.has(shopId)) {
      sendJson(res, 404, { error: `The platform simulator has no shop '${shopId}'` });
      return true;
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    const visit: PosVisit = {
      shopId,
      root: `/pos/${encodeURIComponent(shopId)}`,
      rest: match[2] ?? '',
      url,
      serviceUrl: this.options.serviceUrl(),
      userId: url.searchParams.get('user_id') ?? DEFAULT_POS_USER,
    };
    if (!STAFF_USER_ID.test(visit.userId)) {
      sendJson(res, 400, { error: `user_id must be a staff user's numeric id, got '${visit.userId}'` });
      return true;
    }
    const { rest } = visit;
    if (rest.startsWith('/_host/')) return this.serveHostFile(req, res, visit);
    if (rest === '/session-token') return this.mint(req, res, visit);
    if (rest === '/customers') return this.searchCustomers(req, res, visit);
    const customerPath = /^\/customers\/([^/]+)$/.exec(rest);
    if (customerPath) return this.customer(req, res, shopId, customerPath[1]!);
    const codePath = /^\/codes\/([^/]+)$/.exec(rest);
    if (codePath) return this.code(req, res, shopId, codePath[1]!);
    if (rest === '/charge') return this.charge(req, res, visit);
    if (rest !== '' && rest !== '/') return (sendJson(res, 404, { error: 'Not Found' }), true);
    if (req.method !== 'GET' && req.method !== 'HEAD') return (methodNotAllowed(res, 'GET'), true);
    return this.servePage(res, visit);
  }

  private async serveHostFile(req: IncomingMessage, res: ServerResponse, { rest, serviceUrl }: PosVisit) {
    if (req.method !== 'GET' && req.method !== 'HEAD') return (methodNotAllowed(res, 'GET, HEAD'), true);
    if (!serviceUrl) return (sendJson(res, 503, { error: 'The twin has not started its API yet' }), true);
    const file = (await this.assetsFor(serviceUrl))[rest.slice('/_host/'.length)];
    if (!file) return (sendJson(res, 404, { error: 'Not Found' }), true);
    res.writeHead(200, { 'Content-Type': `${file.type}; charset=utf-8`, 'Cache-Control': 'no-store' }).end(file.body);
    return true;
  }

  private async mint(req: IncomingMessage, res: ServerResponse, { shopId, userId }: PosVisit) {
    if (req.method !== 'POST') return (methodNotAllowed(res, 'POST'), true);
    const { shops } = this.options;
    const credentials = shops.credentials(shopId);
    if (!credentials) return (sendJson(res, 422, { error: `Shop '${shopId}' has no client_id/client_secret` }), true);
    // POS's session token for the staff user: the admin ID token's format (docs/pos.md).
    const token = await mintIdToken(credentials, shops.identity(shopId).domain, userId, this.options.realNow());
    sendJson(res, 200, { token });
    return true;
  }

  private searchCustomers(req: IncomingMessage, res: ServerResponse, { shopId, url }: PosVisit) {
    if (req.method !== 'GET') return (methodNotAllowed(res, 'GET'), true);
    const text = (url.searchParams.get('q') ?? '').trim().toLowerCase();
    const customers = this.options.shops
      .customers(shopId)
      .filter((customer) => {
        const view = customerView(customer);
        return (
          text !== '' && (customer.id === text || view.name.toLowerCase().includes(text) || (view.email ?? '').toLowerCase().includes(text))
        );
      })
      .slice(0, 10)
      .map(customerView);
    sendJson(res, 200, { customers });
    return true;
  }

  private customer(req: IncomingMessage, res: ServerResponse, shopId: string, id: string) {
    if (req.method !== 'GET') return (methodNotAllowed(res, 'GET'), true);
    const customer = this.options.shops.customer(shopId, decodeURIComponent(id));
    if (!customer) return (sendJson(res, 404, { error: `No customer '${id}' in shop '${shopId}'` }), true);
    sendJson(res, 200, customerView(customer));
    return true;
  }

  private code(req: IncomingMessage, res: ServerResponse, shopId: string, text: string) {
    if (req.method !== 'GET') return (methodNotAllowed(res, 'GET'), true);
    const code = this.options.code(shopId, decodeURIComponent(text));
    if (!code) return (sendJson(res, 404, { error: `No discount code '${text}' in shop '${shopId}'` }), true);
    sendJson(res, 200, { code: code.code, kind: code.kind, type: code.type, amount: code.amount });
    return true;
  }

  private async charge(req: IncomingMessage, res: ServerResponse, { shopId, userId }: PosVisit) {
    if (req.method !== 'POST') return (methodNotAllowed(res, 'POST'), true);
    try {
      const body = parseWith(chargeSchema, await readJson(req), 'Invalid charge');
      sendJson(res, 201, await this.options.orders.place(this.orderBody(shopId, userId, body)));
    } catch (error) {
      if (!(error instanceof BadRequest)) throw error;
      sendJson(res, 400, { error: error.message });
    }
    return true;
  }

  private servePage(res: ServerResponse, { shopId, serviceUrl, userId, root }: PosVisit) {
    const { shops } = this.options;
    const shop = {
      id: shopId,
      name: shops.name(shopId),
      domain: shops.identity(shopId).domain,
      currency: shops.currency(shopId),
    };
    if (!shops.credentials(shopId)) {
      sendPosHtml(
        res,
        409,
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>No POS extension</title></head><body><main><h1>No POS extension</h1><p>Shop ${escape(shopId)} has no app client id and secret in the configuration, so the app's extensions are not installed on it (docs/configuration.md).</p></main></body></html>`,
      );
      return true;
    }
    if (!serviceUrl) {
      sendPosHtml(
        res,
        503,
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Starting</title></head><body><main><h1>The twin is starting</h1><p>Reload in a moment.</p></main></body></html>',
      );
      return true;
    }
    sendPosHtml(res, 200, posPage(shop, userId, root));
    return true;
  }
}
