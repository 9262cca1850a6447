// The storefront Shopify serves for each simulated shop, with the app installed: pages of a minimal theme
// rendering the theme app extension (storefront-theme.ts), sign-in and sign-out of a platform customer
// (a cookie), the extension's assets as Shopify's CDN serves them, and the app proxy
// (storefront-app-proxy.ts). Under /storefront/{shop id}/ and /cdn/ on the simulator's origin.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { SHOPIFY_APP_PROXY } from '../../../shared/platform/shopify-app';
import { sendJson } from '../http-server';
import { methodNotAllowed } from './simulator-http';
import type { SimulatedShops } from './simulated-shops';
import { forwardAppProxy } from './storefront-app-proxy';
import { STOREFRONT_CUSTOMER_COOKIE } from './simulated-customer-account';
import { createThemeRenderer, themeProducts, type StorefrontGlobals, type ThemeRenderer } from './storefront-theme';

/** The app proxy's prefix and subpath, as shopify.app.toml's `[app_proxy]` sets them. */
export const APP_PROXY_PATH = `/${SHOPIFY_APP_PROXY.prefix}/${SHOPIFY_APP_PROXY.subpath}`;
const COOKIE = STOREFRONT_CUSTOMER_COOKIE;
/**
 * The sign-in cookie, for the shop's storefront and its customer account pages (/account/{shop id}, as
 * Shopify's customer accounts know the customer the storefront signed in); an empty value signs out.
 */
const signInCookies = (root: string, shopId: string, value: string): string[] =>
  [root, `/account/${encodeURIComponent(shopId)}`].map(
    (path) => `${COOKIE}=${value}; Path=${path}; HttpOnly; SameSite=Lax${value === '' ? '; Max-Age=0' : ''}`,
  );
const STOREFRONT_PATH = /^\/storefront\/([^/]+)(\/.*)?$/;
const CDN_PATH = /^\/cdn\/extensions\/([^/]+)\/([^/]+)\/assets\/([^/]+)$/;
const CONTENT_TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
};

export interface SimulatedStorefrontOptions {
  shops: SimulatedShops;
  /** Where the app proxy forwards (`{api}/shopper`); null answers 502 until the twin sets it. */
  appProxyUrl: () => string | null;
  /** Real time in ms (the proxy's `timestamp`), never the domain clock. */
  realNow: () => number;
}

export interface SimulatedStorefront {
  /** Handles /storefront/... and /cdn/...; false for any other path. */
  handle(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean>;
  renderer: ThemeRenderer;
}

export function createSimulatedStorefront(options: SimulatedStorefrontOptions): SimulatedStorefront {
  const storefront = new StorefrontPages(options);
  return { renderer: storefront.renderer, handle: (req, res, pathname) => storefront.handle(req, res, pathname) };
}

const sendPage = (res: ServerResponse, status: number, html: string, headers: Record<string, string | string[]> = {}) => {
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', ...headers }).end(html);
};

class StorefrontPages {
  readonly renderer = createThemeRenderer('/cdn');
  private readonly gzipped = new Map<string, Buffer>();

  constructor(private readonly options: SimulatedStorefrontOptions) {}

  async handle(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean> {
    const asset = CDN_PATH.exec(pathname);
    if (asset) {
      if (req.method !== 'GET' && req.method !== 'HEAD') methodNotAllowed(res, 'GET, HEAD');
      else this.serveAsset(req, res, asset);
      return true;
    }
    const match = STOREFRONT_PATH.exec(pathname);
    if (!match) return false;
    const shopId = decodeURIComponent(match[1]!);
    if (!this.options.shops.has(shopId)) {
      sendJson(res, 404, { error: `The platform simulator has no shop '${shopId}'` });
      return true;
    }
    const root = `/storefront/${encodeURIComponent(shopId)}`;
    const rest = match[2] ?? '';
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (rest === APP_PROXY_PATH || rest.startsWith(`${APP_PROXY_PATH}/`)) {
      await this.forwardToApp(req, res, shopId, rest, url);
      return true;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      methodNotAllowed(res, 'GET');
      return true;
    }
    await this.page(req, res, shopId, root, rest, url.searchParams);
    return true;
  }

  private async forwardToApp(req: IncomingMessage, res: ServerResponse, shopId: string, rest: string, url: URL) {
    const { shops } = this.options;
    const customer = this.signedInCustomer(req, shopId);
    await forwardAppProxy(req, res, {
      target: this.options.appProxyUrl(),
      subpath: rest.slice(APP_PROXY_PATH.length),
      rawQuery: url.search.slice(1),
      shopDomain: shops.identity(shopId).domain,
      secret: shops.credentials(shopId)?.clientSecret ?? null,
      customerId: customer?.id ?? null,
      pathPrefix: APP_PROXY_PATH,
      timestamp: Math.floor(this.options.realNow() / 1000),
    });
  }

  private serveAsset(req: IncomingMessage, res: ServerResponse, match: RegExpExecArray) {
    const [, handle, version, file] = match;
    const { extension } = this.renderer;
    const bytes = extension.assets.get(decodeURIComponent(file!));
    if (handle !== extension.handle || version !== extension.version || !bytes) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not Found');
      return;
    }
    const type = CONTENT_TYPES[file!.split('.').pop()!] ?? 'application/octet-stream';
    // As a CDN: versioned URLs cached for a year, compressed when the browser accepts it.
    const headers: Record<string, string> = {
      'Content-Type': type,
      'Cache-Control': 'public, max-age=31536000, immutable',
      Vary: 'Accept-Encoding',
    };
    let body = bytes;
    if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? '')) && /^(text|image\/svg)/.test(type)) {
      let packed = this.gzipped.get(file!);
      if (!packed) this.gzipped.set(file!, (packed = gzipSync(bytes, { level: 9 })));
      body = packed;
      headers['Content-Encoding'] = 'gzip';
    }
    res.writeHead(200, { ...headers, 'Content-Length': String(body.length) }).end(req.method === 'HEAD' ? undefined : body);
  }

  private signedInCustomer(req: IncomingMessage, shopId: string) {
    const id = cookieValue(req.headers.cookie, COOKIE);
    return id ? (this.options.shops.customer(shopId, id) ?? null) : null;
  }

  private globals(shopId: string, root: string, req: IncomingMessage, pageType: string): StorefrontGlobals {
    const { shops } = this.options;
    const identity = shops.identity(shopId);
    const customer = this.signedInCustomer(req, shopId);
    return {
      shop: {
        name: shops.name(shopId),
        permanent_domain: identity.domain,
        domain: identity.domain,
        currency: shops.currency(shopId),
      },
      customer: customer
        ? {
            id: Number(customer.id),
            first_name: customer.first_name,
            last_name: customer.last_name,
            name: `${customer.first_name} ${customer.last_name}`.trim(),
            email: customer.email,
          }
        : null,
      // Shopify's routes are relative to the shop's origin; the twin's storefront lives under its root.
      routes: {
        root_url: root,
        account_url: `${root}/account/login`,
        account_login_url: `${root}/account/login`,
        account_logout_url: `${root}/account/logout`,
        account_register_url: `${root}/account/login`,
      },
      request: { locale: { iso_code: 'en' }, design_mode: false, page_type: pageType },
    };
  }

  private async page(req: IncomingMessage, res: ServerResponse, shopId: string, root: string, rest: string, query: URLSearchParams) {
    // `?apps=off`: the theme alone, no app embed and no app block (what the page costs without the app).
    const apps = query.get('apps') !== 'off';
    if (rest === '/' || rest === '') {
      const html = await this.renderer.renderPage({
        template: 'index',
        title: 'Home',
        globals: { ...this.globals(shopId, root, req, 'index'), products: themeProducts(root) },
        apps,
      });
      return sendPage(res, 200, html);
    }
    const product = /^\/products\/([^/]+)$/.exec(rest);
    if (product) return this.productPage(req, res, shopId, root, decodeURIComponent(product[1]!), query, apps);
    if (rest === '/account/login') return this.login(req, res, shopId, root, query, apps);
    if (rest === '/account/logout') {
      return sendPage(res, 303, '', { Location: `${root}/`, 'Set-Cookie': signInCookies(root, shopId, '') });
    }
    return sendPage(res, 404, '<!doctype html><title>Not found</title><h1>Page not found</h1>');
  }

  private async productPage(
    req: IncomingMessage,
    res: ServerResponse,
    shopId: string,
    root: string,
    handle: string,
    query: URLSearchParams,
    apps: boolean,
  ) {
    const found = themeProducts(root).find((entry) => entry.handle === handle);
    if (!found) return sendPage(res, 404, '<!doctype html><title>Not found</title><h1>Product not found</h1>');
    const variant = found.variants.find((entry) => String(entry.id) === query.get('variant'));
    const selected = variant ? { ...found, selected_or_first_available_variant: variant } : found;
    const html = await this.renderer.renderPage({
      template: 'product',
      title: found.title,
      globals: { ...this.globals(shopId, root, req, 'product'), product: selected },
      apps,
    });
    return sendPage(res, 200, html);
  }

  private async login(req: IncomingMessage, res: ServerResponse, shopId: string, root: string, query: URLSearchParams, apps: boolean) {
    const { shops } = this.options;
    const customerId = query.get('customer_id');
    if (customerId !== null) {
      if (shops.customer(shopId, customerId)) {
        const back = query.get('return_to');
        const location = back && back.startsWith(`${root}/`) && !back.startsWith('//') ? back : `${root}/`;
        return sendPage(res, 303, '', {
          Location: location,
          'Set-Cookie': signInCookies(root, shopId, encodeURIComponent(customerId)),
        });
      }
    }
    const html = await this.renderer.renderPage({
      template: 'login',
      title: 'Sign in',
      globals: {
        ...this.globals(shopId, root, req, 'customers/login'),
        platform_customers: shops.customers(shopId),
        error: customerId !== null ? `The shop has no customer ${customerId}.` : null,
      },
      apps,
    });
    sendPage(res, customerId !== null ? 404 : 200, html);
  }
}

function cookieValue(header: string | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at !== -1 && part.slice(0, at).trim() === name) {
      const value = decodeURIComponent(part.slice(at + 1).trim());
      return value === '' ? null : value;
    }
  }
  return null;
}
