// The theme app extension as Shopify's CLI deploys it: its file layout, its blocks' schemas, every text
// in locales/, and its weight within the budget (JS at most 10 KB and CSS at most 20 KB, the sum over
// assets/ of each file gzip-compressed). The twin renders the same files (storefront-theme.ts), so the
// rendering checks here run on the real blocks.
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import {
  createThemeRenderer,
  themeExtensionWeight as extensionWeight,
  loadThemeExtension,
  THEME_EXTENSION_DIR,
  translate,
  type StorefrontGlobals,
} from '../../infra/local/simulator/storefront-theme';

const KB = 1024;
const JS_BUDGET = 10 * KB;
const CSS_BUDGET = 20 * KB;

const extension = loadThemeExtension();
const blockFiles = readdirSync(join(THEME_EXTENSION_DIR, 'blocks'));
const liquidFiles = [
  ...blockFiles.map((file) => join('blocks', file)),
  ...readdirSync(join(THEME_EXTENSION_DIR, 'snippets')).map((file) => join('snippets', file)),
];
const storefrontLocale = JSON.parse(readFileSync(join(THEME_EXTENSION_DIR, 'locales', 'en.default.json'), 'utf8')) as Record<
  string,
  unknown
>;
const schemaLocale = JSON.parse(readFileSync(join(THEME_EXTENSION_DIR, 'locales', 'en.default.schema.json'), 'utf8')) as Record<
  string,
  unknown
>;
const lookup = (locale: Record<string, unknown>, key: string): unknown =>
  key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], locale);

describe('the theme app extension', () => {
  it("has Shopify's layout: shopify.extension.toml of type theme, and only blocks/, assets/, locales/ and snippets/", () => {
    const toml = parse(readFileSync(join(THEME_EXTENSION_DIR, 'shopify.extension.toml'), 'utf8')) as { type: string; name: string };

    expect(toml.type).toBe('theme');
    expect(toml.name.length).toBeGreaterThan(0);
    expect(readdirSync(THEME_EXTENSION_DIR).sort()).toEqual(['assets', 'blocks', 'locales', 'shopify.extension.toml', 'snippets']);
    for (const folder of ['assets', 'blocks', 'locales', 'snippets']) {
      for (const file of readdirSync(join(THEME_EXTENSION_DIR, folder))) {
        expect({ file, isFile: statSync(join(THEME_EXTENSION_DIR, folder, file)).isFile() }).toEqual({ file, isFile: true });
      }
    }
    expect(blockFiles.every((file) => file.endsWith('.liquid'))).toBe(true);
  });

  it('holds an app embed on body and a product-page app block, each with a valid schema', () => {
    const byHandle = Object.fromEntries(extension.blocks.map((block) => [block.handle, block.schema]));

    expect(Object.keys(byHandle).sort()).toEqual(['loyalty-launcher', 'product-points']);
    // The embed loads its script and stylesheet itself, on the shopper's first reach for the launcher:
    // nothing in the schema, which Shopify would load on every page.
    expect(byHandle['loyalty-launcher']).toMatchObject({ target: 'body' });
    expect(byHandle['loyalty-launcher']!.javascript).toBeUndefined();
    expect(byHandle['loyalty-launcher']!.stylesheet).toBeUndefined();
    expect(byHandle['product-points']).toMatchObject({ target: 'section', enabled_on: { templates: ['product'] } });
    // The product block loads no script asset: its few lines are inline, computing from what the embed holds.
    expect(byHandle['product-points']!.javascript).toBeUndefined();
    for (const block of extension.blocks) {
      for (const asset of [block.schema.javascript, block.schema.stylesheet].filter(Boolean))
        expect(extension.assets.has(asset!)).toBe(true);
      const ids = (block.schema.settings ?? []).map((setting) => setting.id);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });

  it('names every schema text through the schema locale, each at most 25 characters for a block name', () => {
    for (const block of extension.blocks) {
      const texts = JSON.stringify(block.schema).match(/"t:[^"]+"/g) ?? [];
      expect(texts.length).toBeGreaterThan(0);
      for (const text of texts) {
        const key = text.slice(3, -1);
        expect({ key, value: typeof lookup(schemaLocale, key) }).toEqual({ key, value: 'string' });
      }
      const name = lookup(schemaLocale, block.schema.name.slice(2)) as string;
      expect(name.length).toBeLessThanOrEqual(25);
    }
  });

  it('takes every customer-facing text from locales/en.default.json through the t filter', () => {
    const keys = liquidFiles.flatMap((file) =>
      [...readFileSync(join(THEME_EXTENSION_DIR, file), 'utf8').matchAll(/'([a-z_.]+)'\s*\|\s*t\b/g)].map((match) => match[1]!),
    );

    expect(keys.length).toBeGreaterThan(30);
    for (const key of keys) expect({ key, found: lookup(storefrontLocale, key) !== undefined }).toEqual({ key, found: true });
    // No text of the panel is written in the script itself: it reads them from the embed's JSON.
    const script = readFileSync(join(THEME_EXTENSION_DIR, 'assets', 'loyalty-launcher.js'), 'utf8');
    const texts = [...script.matchAll(/\bT\.(\w+)/g)].map((match) => match[1]!);
    const embed = readFileSync(join(THEME_EXTENSION_DIR, 'blocks', 'loyalty-launcher.liquid'), 'utf8');
    for (const text of new Set(texts)) expect({ text, given: embed.includes(`"${text}":`) }).toEqual({ text, given: true });
  });

  it('stays within the budget: JS at most 10 KB and CSS at most 20 KB compressed, with no framework', () => {
    const weight = extensionWeight();

    expect(weight.js).toBeGreaterThan(0);
    expect(weight.js).toBeLessThanOrEqual(JS_BUDGET);
    expect(weight.css).toBeLessThanOrEqual(CSS_BUDGET);
    // The embed's inline loader, which every page runs, is a few hundred bytes.
    const embed = readFileSync(join(THEME_EXTENSION_DIR, 'blocks', 'loyalty-launcher.liquid'), 'utf8');
    const inline = [...embed.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1]!);
    expect(inline).toHaveLength(1);
    expect(Buffer.byteLength(inline[0]!)).toBeLessThan(1024);
    for (const [file, bytes] of extension.assets) {
      if (!file.endsWith('.js')) continue;
      const source = bytes.toString('utf8');
      // Plain script: nothing imported, nothing fetched from elsewhere, valid as written.
      expect(source).not.toMatch(/^\s*import\s|require\(|https?:\/\//m);
      expect(() => new Function(source)).not.toThrow();
    }
  });

  it('counts every file of assets/, so that one more script over the budget fails the check', () => {
    const copy = mkdtempSync(join(tmpdir(), 'theme-extension-'));
    try {
      cpSync(THEME_EXTENSION_DIR, copy, { recursive: true });
      // Random bytes do not compress: 7 KB more of script takes the sum over 10 KB.
      writeFileSync(join(copy, 'assets', 'extra.js'), randomBytes(7 * KB).toString('base64'));
      const weight = extensionWeight(copy);

      expect(weight.js).toBeGreaterThan(JS_BUDGET);
      expect(weight.css).toBe(extensionWeight().css);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});

describe("the extension's Liquid, rendered as Shopify renders it", () => {
  const renderer = createThemeRenderer('/cdn', extension);
  const globals = (customer: StorefrontGlobals['customer'] = null): StorefrontGlobals => ({
    shop: { name: 'Ada & Co', permanent_domain: 'ada.myshopify.com', domain: 'ada.myshopify.com', currency: 'USD' },
    customer,
    routes: {
      root_url: '/',
      account_login_url: '/account/login',
      account_logout_url: '/account/logout',
      account_register_url: '/account/register',
    },
    request: { locale: { iso_code: 'en' }, design_mode: false, page_type: 'product' },
  });
  const product = (price: number) => ({
    handle: 'tote',
    title: 'Tote',
    description: '',
    url: '/products/tote',
    price,
    variants: [{ id: 1, title: 'Default', price, available: true }],
    selected_or_first_available_variant: { id: 1, title: 'Default', price, available: true },
  });
  const points = (html: string) => /data-loyalty-product-points="(\d+)"/.exec(html)?.[1];

  it("renders the product block with its price and the shopper's id, the figure left to the figures the embed holds", async () => {
    const html = await renderer.renderPage({
      template: 'product',
      title: 'Tote',
      globals: {
        ...globals({ id: 1001, first_name: 'Ada', last_name: 'L', name: 'Ada L', email: 'ada@example.com' }),
        product: product(8950),
      },
      apps: true,
    });

    expect(html).toMatch(/data-loyalty-product data-price="8950" data-customer="1001"/);
    // No figure is written by Liquid: the block has no settings of its own to disagree with the program.
    expect(points(html)).toBeUndefined();
    expect(html).toContain('Earn points with this purchase');
    expect(extension.blocks.find((block) => block.handle === 'product-points')!.schema.settings).toEqual([]);
    const guest = await renderer.renderPage({
      template: 'product',
      title: 'Tote',
      globals: { ...globals(), product: product(8950) },
      apps: true,
    });
    expect(guest).toContain('data-customer=""');
    expect(
      await renderer.renderPage({ template: 'product', title: 'Pin', globals: { ...globals(), product: product(0) }, apps: true }),
    ).not.toContain('data-loyalty-product');
    expect(
      await renderer.renderPage({ template: 'product', title: 'Tote', globals: { ...globals(), product: product(8950) }, apps: false }),
    ).not.toMatch(/loyalty/);
  });

  it("renders the app embed before </body>, loading nothing until used, its assets named by the CDN's versioned URLs", async () => {
    const html = await renderer.renderPage({ template: 'index', title: 'Home', globals: { ...globals(), products: [] }, apps: true });
    const head = html.slice(0, html.indexOf('</head>'));

    expect(html).toMatch(/<div\s+id="loyalty-embed"[\s\S]*<\/div>\s*<\/body>/);
    expect(html).toContain('data-proxy="/apps/loyalty"');
    // Nothing of the app in the head: no render-blocking stylesheet, no script.
    expect(head).not.toMatch(/loyalty/);
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(html).not.toMatch(/<link[^>]+loyalty/);
    expect(html).toContain(`data-script="/cdn/extensions/loyalty-theme/${extension.version}/assets/loyalty-launcher.js"`);
    expect(html).toContain(`data-stylesheet="/cdn/extensions/loyalty-theme/${extension.version}/assets/loyalty-launcher.css"`);
    // The shop's name is escaped where the t filter interpolates it.
    expect(html).toContain('Ada &amp; Co Rewards');
    const texts = JSON.parse(/<script type="application\/json" data-loyalty-texts>([\s\S]*?)<\/script>/.exec(html)![1]!) as Record<
      string,
      unknown
    >;
    expect(texts.points).toEqual({ one: '{n} point', other: '{n} points' });
    expect(texts.redeemed).toBe('You redeemed {reward}. Your code is {code}.');
  });

  it("translates as Shopify's t filter: plural forms by count, escaped values, a missing key named", () => {
    const locale = {
      a: { n: { one: '{{ count }} point', other: '{{ count }} points' }, hi: 'Hi {{ name }}', raw_html: '<b>{{ name }}</b>' },
    };

    expect(translate(locale, 'a.n', [['count', 1]])).toBe('1 point');
    expect(translate(locale, 'a.n', [['count', 3]])).toBe('3 points');
    expect(translate(locale, 'a.hi', [['name', '<i>']])).toBe('Hi &lt;i&gt;');
    expect(translate(locale, 'a.raw_html', [['name', '<i>']])).toBe('<b><i></b>');
    expect(translate(locale, 'a.nope', [])).toBe('translation missing: en.a.nope');
  });
});
