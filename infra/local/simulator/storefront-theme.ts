// The twin's storefront renderer: the minimal theme of storefront-theme/ and the theme app extension of
// infra/shopify-app/extensions/, rendered with a real Liquid engine (liquidjs) the way Shopify renders
// them: the extension's blocks with their `{% schema %}` (settings and their defaults, `javascript`,
// `stylesheet`), its snippets for `{% render %}`, the `t` filter over its locales, `asset_url` naming
// the CDN, and the app embeds of target `body` added before `</body>`.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Liquid, RenderTag, type Context, type Emitter, type Parser, type TagToken, type Template, type TopLevelToken } from 'liquidjs';

export const THEME_EXTENSION_DIR = resolve(__dirname, '..', '..', 'shopify-app', 'extensions', 'loyalty-theme');
export const THEME_DIR = resolve(__dirname, 'storefront-theme');

interface SettingSchema {
  id: string;
  type: string;
  default?: unknown;
}
export interface BlockSchema {
  name: string;
  target: 'section' | 'body' | 'head' | 'compliance_head';
  javascript?: string;
  stylesheet?: string;
  enabled_on?: { templates?: string[] };
  settings?: SettingSchema[];
}
export interface ExtensionBlock {
  handle: string;
  /** The block's Liquid without its `{% schema %}`. */
  source: string;
  schema: BlockSchema;
}

export interface ThemeExtension {
  /** The extension's folder name, which Shopify's CDN path carries. */
  handle: string;
  dir: string;
  /** A digest of the assets: a new version gets new URLs, as each deployed version does on Shopify's CDN. */
  version: string;
  blocks: ExtensionBlock[];
  /** The storefront translations, en.default.json. */
  locale: Record<string, unknown>;
  assets: Map<string, Buffer>;
}

const SCHEMA = /{%-?\s*schema\s*-?%}([\s\S]*?){%-?\s*endschema\s*-?%}/;

/** Reads the theme app extension as Shopify's CLI would deploy it; a block without a valid schema throws. */
export function loadThemeExtension(dir: string = THEME_EXTENSION_DIR): ThemeExtension {
  const blocks = readdirSync(join(dir, 'blocks'))
    .filter((file) => file.endsWith('.liquid'))
    .sort()
    .map((file) => {
      const text = readFileSync(join(dir, 'blocks', file), 'utf8');
      const schema = SCHEMA.exec(text);
      if (!schema) throw new Error(`${file} has no {% schema %}`);
      return { handle: file.replace(/\.liquid$/, ''), source: text.replace(SCHEMA, ''), schema: JSON.parse(schema[1]!) as BlockSchema };
    });
  const assets = new Map(readdirSync(join(dir, 'assets')).map((file) => [file, readFileSync(join(dir, 'assets', file))] as const));
  const digest = createHash('sha256');
  for (const [file, bytes] of [...assets].sort(([a], [b]) => a.localeCompare(b))) digest.update(file).update(bytes);
  return {
    handle: dir.split(/[\\/]/).pop()!,
    dir,
    version: digest.digest('hex').slice(0, 12),
    blocks,
    locale: JSON.parse(readFileSync(join(dir, 'locales', 'en.default.json'), 'utf8')) as Record<string, unknown>,
    assets,
  };
}

/**
 * The extension's weight as Shopify's budget counts it: each file of assets/ gzip-compressed, summed per
 * kind (the budget: JS at most 10 KB, CSS at most 20 KB), with the raw sizes beside.
 */
export function themeExtensionWeight(dir: string = THEME_EXTENSION_DIR): { js: number; css: number; rawJs: number; rawCss: number } {
  const weight = { js: 0, css: 0, rawJs: 0, rawCss: 0 };
  for (const file of readdirSync(join(dir, 'assets'))) {
    const bytes = readFileSync(join(dir, 'assets', file));
    const packed = gzipSync(bytes, { level: 9 }).length;
    if (file.endsWith('.js')) {
      weight.js += packed;
      weight.rawJs += bytes.length;
    } else if (file.endsWith('.css')) {
      weight.css += packed;
      weight.rawCss += bytes.length;
    }
  }
  return weight;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

/**
 * Shopify's `t` filter over a locale file: a dotted key, `{{ name }}` interpolation with HTML-escaped
 * values (unescaped for keys ending in `_html`), and with `count` the plural form (`zero` for 0 when
 * given, `one` for 1, else `other`). A missing key renders as Shopify renders it: `translation missing: en.KEY`.
 */
export function translate(locale: Record<string, unknown>, key: string, args: Array<[string, unknown]>): string {
  let value: unknown = locale;
  for (const part of key.split('.')) value = (value as Record<string, unknown> | undefined)?.[part];
  const values = Object.fromEntries(args);
  if (value !== null && typeof value === 'object' && 'count' in values) {
    const forms = value as Record<string, unknown>;
    const count = Number(values.count);
    value = (count === 0 && forms.zero) || (count === 1 && forms.one) || forms.other;
  }
  if (typeof value !== 'string') return `translation missing: en.${key}`;
  const raw = key.endsWith('_html');
  return value.replace(/{{\s*(\w+)\s*}}/g, (all, name: string) =>
    name in values ? (raw ? String(values[name]) : escapeHtml(String(values[name]))) : all,
  );
}

/** A block instance as Liquid sees it: its settings (the schema's defaults overridden by the theme's). */
function blockObject(block: ExtensionBlock, id: string, settings: Record<string, unknown> = {}) {
  const defaults = Object.fromEntries((block.schema.settings ?? []).map((setting) => [setting.id, setting.default ?? null]));
  return { id, type: `@app`, settings: { ...defaults, ...settings }, shopify_attributes: `data-block-handle="${block.handle}"` };
}

/** What `{% render block %}` outputs for an app block of a section: rendered beforehand, written as is. */
interface RenderedAppBlock {
  type: '@app';
  html: string;
}

/**
 * `{% render 'snippet' %}` as liquidjs does it, plus Shopify's `{% render block %}` for a section's app
 * blocks (a bare variable, not a quoted name), which writes the block rendered beforehand.
 */
class ThemeRenderTag extends RenderTag {
  private readonly appBlockVariable: string | null;
  constructor(token: TagToken, remainTokens: TopLevelToken[], liquid: Liquid, parser: Parser) {
    super(token, remainTokens, liquid, parser);
    const variable = /^\s*([A-Za-z_]\w*)\s*$/.exec(token.args)?.[1];
    this.appBlockVariable = variable ?? null;
  }
  override *render(ctx: Context, emitter: Emitter): Generator<unknown, void, unknown> {
    if (this.appBlockVariable !== null) {
      const block = ctx.getSync([this.appBlockVariable]) as RenderedAppBlock | undefined;
      emitter.write(block?.type === '@app' ? block.html : '');
      return;
    }
    yield* super.render(ctx, emitter);
  }
}

export interface StorefrontGlobals {
  shop: { name: string; permanent_domain: string; domain: string; currency: string };
  customer: { id: number; first_name: string; last_name: string; name: string; email: string } | null;
  routes: Record<string, string>;
  request: { locale: { iso_code: string }; design_mode: boolean; page_type: string };
  [name: string]: unknown;
}

export interface PageOptions {
  /** The template of storefront-theme/ (index, product, login). */
  template: string;
  title: string;
  globals: StorefrontGlobals;
  /** false renders the theme alone: no app embed, no app block (what a page costs without the app). */
  apps: boolean;
}

export interface ThemeRenderer {
  extension: ThemeExtension;
  renderPage(options: PageOptions): Promise<string>;
  assetUrl(file: string): string;
}

/** `cdnBase`: where the CDN's `extensions/...` paths are served (the simulator's `/cdn`). */
export function createThemeRenderer(cdnBase: string, extension: ThemeExtension = loadThemeExtension()): ThemeRenderer {
  const assetUrl = (file: string) => `${cdnBase}/extensions/${extension.handle}/${extension.version}/assets/${file}`;
  const currencyFormat = new Map<string, Intl.NumberFormat>();

  const engine = (locale: Record<string, unknown>, partials: string[]) => {
    const liquid = new Liquid({ root: partials, partials, extname: '.liquid', strictFilters: true, cache: true });
    liquid.registerTag('render', ThemeRenderTag);
    liquid.registerFilter('t', (key: string, ...args: Array<[string, unknown]>) => translate(locale, key, args));
    liquid.registerFilter('asset_url', (file: string) => {
      if (!extension.assets.has(file)) throw new Error(`asset_url: the extension has no asset '${file}'`);
      return assetUrl(file);
    });
    liquid.registerFilter('money', function (this: { context: Context }, cents: number) {
      const currency = (this.context.getSync(['shop', 'currency']) as string | undefined) ?? 'USD';
      let format = currencyFormat.get(currency);
      if (!format) currencyFormat.set(currency, (format = new Intl.NumberFormat('en', { style: 'currency', currency })));
      return format.format(Number(cents) / 100);
    });
    return liquid;
  };
  const extensionEngine = engine(extension.locale, [join(extension.dir, 'snippets')]);
  const themeEngine = engine({}, [THEME_DIR]);
  // Parsed once, as Shopify compiles a theme's templates once per version, rendered per request.
  const templates = new Map<string, Template[]>();
  const template = (name: string) => {
    let parsed = templates.get(name);
    if (parsed === undefined) templates.set(name, (parsed = themeEngine.parse(readFileSync(join(THEME_DIR, `${name}.liquid`), 'utf8'))));
    return parsed;
  };
  const blockTemplates = new Map(extension.blocks.map((block) => [block.handle, extensionEngine.parse(block.source)]));

  const renderBlock = (block: ExtensionBlock, globals: StorefrontGlobals) =>
    extensionEngine.render(blockTemplates.get(block.handle)!, {
      ...globals,
      block: blockObject(block, `${block.handle}-1`),
    }) as Promise<string>;

  return {
    extension,
    assetUrl,
    async renderPage({ template: name, title, globals, apps }) {
      const embeds = apps ? extension.blocks.filter((block) => block.schema.target === 'body') : [];
      const appBlocks = apps
        ? extension.blocks.filter(
            (block) =>
              block.schema.target === 'section' && (block.schema.enabled_on?.templates ?? [name]).includes(name) && name !== 'login',
          )
        : [];
      const used = [...embeds, ...appBlocks];
      // Shopify loads each used block's stylesheet in the head, its script deferred.
      const head = used
        .flatMap((block) => [
          ...(block.schema.stylesheet ? [`<link rel="stylesheet" href="${assetUrl(block.schema.stylesheet)}">`] : []),
          ...(block.schema.javascript ? [`<script src="${assetUrl(block.schema.javascript)}" defer></script>`] : []),
        ])
        .join('\n    ');
      const sectionBlocks: RenderedAppBlock[] = await Promise.all(
        appBlocks.map(async (block) => ({ type: '@app' as const, html: await renderBlock(block, globals) })),
      );
      const content = await themeEngine.render(template(name), { ...globals, section: { blocks: sectionBlocks } });
      const page = await themeEngine.render(template('theme'), {
        ...globals,
        page_title: title,
        content_for_header: head,
        content_for_layout: content,
      });
      const bodyEnd = (await Promise.all(embeds.map((block) => renderBlock(block, globals)))).join('\n');
      return page.replace('</body>', `${bodyEnd}\n  </body>`);
    },
  };
}

/** The twin's catalog: storefront-theme/products.json, as Liquid's `product` objects. */
export interface ThemeProduct {
  handle: string;
  title: string;
  description: string;
  url: string;
  price: number;
  variants: Array<{ id: number; title: string; price: number; available: boolean }>;
  selected_or_first_available_variant: { id: number; title: string; price: number; available: boolean };
}

export function themeProducts(rootUrl: string): ThemeProduct[] {
  const file = join(THEME_DIR, 'products.json');
  if (!existsSync(file)) return [];
  const products = JSON.parse(readFileSync(file, 'utf8')) as Array<
    Omit<ThemeProduct, 'url' | 'price' | 'selected_or_first_available_variant'>
  >;
  return products.map((product) => {
    const first = product.variants.find((variant) => variant.available) ?? product.variants[0]!;
    return { ...product, url: `${rootUrl}/products/${product.handle}`, price: first.price, selected_or_first_available_variant: first };
  });
}
