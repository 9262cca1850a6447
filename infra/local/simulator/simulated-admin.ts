// Shopify's admin for each simulated shop, as far as the app's home needs it (SURFACES-CONTRACT.md, "The
// twin" > "The admin"): GET /admin/{shop id}/ frames the twin's GET /admin as Shopify's admin frames an
// embedded app (`shop`, `host`, `embedded=1` and a fresh `id_token` in the frame's address, after the app's own
// parameters of the admin's address, `?customer=1001`, but `user_id`, the staff user signed in), and answers the
// frame's requests for fresh ID tokens. GET /cdn/shopifycloud/app-bridge.js is App Bridge's stand-in, which
// the twin's /admin loads instead of Shopify's CDN: it asks this page for a fresh ID token whenever the app
// needs one, adds `Authorization: Bearer <token>` to every fetch to the app's own origin (once more with a
// fresh token on a 401 carrying `X-Shopify-Retry-Invalid-Session-Request: 1`), and on the bounce page loads
// `shopify-reload` with a fresh token, as App Bridge does.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { methodNotAllowed } from './simulator-http';
import type { SimulatedShops } from './simulated-shops';
import { mintIdToken } from './shopify-tokens';

const ADMIN_PATH = /^\/admin\/([^/]+)(\/?)$/;
/** Where the stand-in is served: the path of Shopify's own script, on the simulator's origin. */
export const APP_BRIDGE_STAND_IN_PATH = '/cdn/shopifycloud/app-bridge.js';
/** The staff user the admin signs in when the address names none (`?user_id=`). */
export const DEFAULT_STAFF_USER = '1';
const USER_ID = /^\d{1,20}$/;

export interface SimulatedAdminOptions {
  shops: SimulatedShops;
  /** The app's home (`{api}/admin`); null answers 502 until the twin sets it. */
  appUrl: () => string | null;
  realNow: () => number;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

/** Shopify's `host` parameter: the admin's address for the shop, base64 without padding. */
export function adminHost(shopDomain: string): string {
  return Buffer.from(`admin.shopify.com/store/${shopDomain.replace(/\.myshopify\.com$/, '')}`)
    .toString('base64')
    .replace(/=+$/, '');
}

export function createSimulatedAdmin(options: SimulatedAdminOptions) {
  const page = (res: ServerResponse, status: number, html: string) =>
    res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(html);

  const serveAdmin = async (req: IncomingMessage, res: ServerResponse, shopId: string) => {
    if (!options.shops.has(shopId)) return page(res, 404, `<!doctype html><title>Not found</title><p>No shop '${escapeHtml(shopId)}'.</p>`);
    const credentials = options.shops.credentials(shopId);
    if (!credentials) {
      return page(
        res,
        422,
        `<!doctype html><title>No app</title><p>Shop '${escapeHtml(shopId)}' has legacy credentials: it has no embedded app.</p>`,
      );
    }
    const appUrl = options.appUrl();
    if (!appUrl) return page(res, 502, '<!doctype html><title>Not ready</title><p>The twin has not started its API yet.</p>');
    const asked = new URL(req.url ?? '/', 'http://localhost').searchParams;
    const user = asked.get('user_id') ?? DEFAULT_STAFF_USER;
    if (!USER_ID.test(user))
      return page(res, 400, '<!doctype html><title>Bad user</title><p>user_id must be a staff user id such as 42.</p>');
    const domain = options.shops.identity(shopId).domain;
    const token = await mintIdToken(credentials, domain, user, options.realNow());
    const frame = new URL(appUrl);
    // The app's own parameters (an extension's `app:?customer=…` link) reach the frame, as Shopify passes them on.
    const own = [...asked].filter(([name]) => !['user_id', 'shop', 'host', 'embedded', 'id_token'].includes(name));
    frame.search = new URLSearchParams([
      ...own,
      ['shop', domain],
      ['host', adminHost(domain)],
      ['embedded', '1'],
      ['id_token', token],
    ]).toString();
    const settings = { shop: shopId, user, clientId: credentials.clientId, appOrigin: frame.origin };
    page(
      res,
      200,
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
        `<title>${escapeHtml(options.shops.name(shopId))} · Loyalty program · Shopify admin (twin)</title>` +
        `<style>${ADMIN_STYLES}</style></head><body>` +
        `<header class="admin-bar"><span class="logo">Shopify admin</span><span>${escapeHtml(options.shops.name(shopId))}</span>` +
        `<span class="user">Staff user ${escapeHtml(user)} · twin</span></header>` +
        `<main><iframe id="app-frame" title="Loyalty program" src="${escapeHtml(frame.toString())}"></iframe></main>` +
        `<script>${adminScript(settings)}</script></body></html>`,
    );
  };

  return {
    /** Handles /admin/{shop id}/ and the App Bridge stand-in; false for any other path. */
    async handle(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean> {
      if (pathname === APP_BRIDGE_STAND_IN_PATH) {
        if (req.method !== 'GET' && req.method !== 'HEAD') return (methodNotAllowed(res, 'GET'), true);
        res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-cache' }).end(APP_BRIDGE_STAND_IN);
        return true;
      }
      const match = ADMIN_PATH.exec(pathname);
      if (!match) return false;
      if (req.method !== 'GET') return (methodNotAllowed(res, 'GET'), true);
      const shopId = decodeURIComponent(match[1]!);
      if (match[2] === '') {
        res.writeHead(301, { Location: `/admin/${encodeURIComponent(shopId)}/` }).end();
        return true;
      }
      await serveAdmin(req, res, shopId);
      return true;
    },
  };
}

const ADMIN_STYLES = [
  'body{margin:0;font:14px/1.4 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,sans-serif;background:#1a1a1a}',
  '.admin-bar{display:flex;gap:16px;align-items:center;height:48px;padding:0 16px;color:#e3e3e3}',
  '.logo{font-weight:700;color:#fff}.user{margin-left:auto}',
  'main{position:absolute;inset:48px 0 0 0;background:#f1f1f1;border-radius:12px 12px 0 0;overflow:hidden}',
  'iframe{border:0;width:100%;height:100%}',
].join('');

/** The admin's side: answers the frame's requests for an ID token with a fresh one from POST /_id_tokens. */
function adminScript(settings: { shop: string; user: string; clientId: string; appOrigin: string }): string {
  return `(() => {
  const settings = ${JSON.stringify(settings).replace(/</g, '\\u003c')};
  const frame = document.getElementById('app-frame');
  addEventListener('message', async (event) => {
    const data = event.data;
    if (event.source !== frame.contentWindow || event.origin !== settings.appOrigin) return;
    if (!data || data.type !== 'twin-app-bridge:id-token-request') return;
    const answer = { type: 'twin-app-bridge:id-token', id: data.id };
    if (data.apiKey !== settings.clientId) {
      answer.error = 'The page\\'s shopify-api-key is not this shop\\'s app';
    } else {
      try {
        const response = await fetch('/_id_tokens', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ shop: settings.shop, user_id: settings.user }),
        });
        const body = await response.json();
        if (body.token) answer.token = body.token; else answer.error = body.error || 'No token';
      } catch (error) {
        answer.error = String(error);
      }
    }
    frame.contentWindow.postMessage(answer, settings.appOrigin);
  });
})();`;
}

/** App Bridge's stand-in, run in the app's frame (a plain script, as Shopify's is). */
const APP_BRIDGE_STAND_IN = `// App Bridge's stand-in of the twin's admin (infra/local/simulator/simulated-admin.ts).
(() => {
  const bridgeOrigin = new URL(document.currentScript.src).origin;
  const meta = document.querySelector('meta[name="shopify-api-key"]');
  const apiKey = meta ? meta.content : null;
  const params = new URLSearchParams(location.search);
  const waiting = new Map();
  let next = 0;
  addEventListener('message', (event) => {
    const data = event.data;
    if (event.origin !== bridgeOrigin || !data || data.type !== 'twin-app-bridge:id-token') return;
    const settle = waiting.get(data.id);
    if (!settle) return;
    waiting.delete(data.id);
    settle(data);
  });
  /** A fresh ID token from the admin around the frame. */
  const idToken = () =>
    new Promise((resolve, reject) => {
      if (window.parent === window) return reject(new Error('App Bridge: the app is not framed by the admin'));
      const id = ++next;
      waiting.set(id, (answer) => (answer.token ? resolve(answer.token) : reject(new Error(answer.error))));
      window.parent.postMessage({ type: 'twin-app-bridge:id-token-request', id, apiKey }, bridgeOrigin);
    });
  const nativeFetch = window.fetch.bind(window);
  const appOrigin = (input) => new URL(input instanceof Request ? input.url : String(input), location.href).origin === location.origin;
  window.fetch = async (input, init) => {
    if (!appOrigin(input)) return nativeFetch(input, init);
    const send = async () => {
      const headers = new Headers((init && init.headers) || (input instanceof Request ? input.headers : undefined));
      headers.set('Authorization', 'Bearer ' + (await idToken()));
      return nativeFetch(input, { ...init, headers });
    };
    const response = await send();
    if (response.status === 401 && response.headers.get('X-Shopify-Retry-Invalid-Session-Request') === '1') return send();
    return response;
  };
  window.shopify = { config: { apiKey, shop: params.get('shop'), host: params.get('host') }, idToken };
  const reload = params.get('shopify-reload');
  if (reload) {
    idToken().then((token) => {
      const target = new URL(reload, location.href);
      if (target.origin !== location.origin) throw new Error('App Bridge: shopify-reload must be on the app\\'s origin');
      target.searchParams.set('id_token', token);
      location.replace(target.toString());
    });
  }
})();
`;
