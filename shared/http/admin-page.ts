// The HTML answers of GET /admin (SURFACES-CONTRACT.md, "Staff routes"): the app's home for a verified staff
// member, and App Bridge's bounce page, which obtains an ID token and reloads the page with it. Both load
// App Bridge first, as Shopify requires (`<meta name="shopify-api-key">` and the script, neither async nor
// deferred); the app's script is inlined after it. In the cloud App Bridge comes from Shopify's CDN; the
// twin points the function at its stand-in (APP_BRIDGE_SCRIPT_URL, docs/decisions.md).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { env } from '../runtime/env';

/** The app's script in the function's package (the stack's admin function writes it there). */
export const ADMIN_APP_SCRIPT_NAME = 'admin-app.js';

/** The page may be framed by the shop's admin and Shopify's unified admin only (plus the twin's admin, by setting). */
export function frameAncestors(shopDomain: string, extraOrigins: readonly string[] = []): string {
  return `frame-ancestors ${[`https://${shopDomain}`, 'https://admin.shopify.com', ...extraOrigins].join(' ')};`;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

/** A script's text inside `<script>`: nothing in it can close the element. */
const inlineScript = (code: string) => code.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');

function head(clientId: string, title: string): string {
  return (
    `<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="shopify-api-key" content="${escapeHtml(clientId)}">` +
    `<script src="${escapeHtml(env().APP_BRIDGE_SCRIPT_URL)}"></script>` +
    `<title>${escapeHtml(title)}</title>`
  );
}

/** The app's home: App Bridge, then the app. */
export function adminPageHtml(clientId: string, appScript: string): string {
  return (
    `<!doctype html><html lang="en"><head>${head(clientId, 'Loyalty program')}</head>` +
    `<body><div id="app"></div><noscript>The loyalty program's page needs JavaScript.</noscript>` +
    `<script>${inlineScript(appScript)}</script></body></html>`
  );
}

/** App Bridge's bounce page: App Bridge alone, which reads `shopify-reload` and loads it with a fresh ID token. */
export function bouncePageHtml(clientId: string): string {
  return `<!doctype html><html lang="en"><head>${head(clientId, 'Loyalty program: signing in')}</head><body></body></html>`;
}

export function htmlResponse(statusCode: number, html: string, csp: string): APIGatewayProxyResult {
  return {
    statusCode,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': csp,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'strict-origin-when-cross-origin',
    },
    body: html,
  };
}

let appScript: Promise<string> | undefined;

/** The app's script, read once per warm function: ADMIN_APP_SCRIPT_FILE, or admin-app.js in the function's package. */
export function adminAppScript(): Promise<string> {
  const settings = env();
  const file = settings.ADMIN_APP_SCRIPT_FILE ?? join(settings.LAMBDA_TASK_ROOT ?? process.cwd(), ADMIN_APP_SCRIPT_NAME);
  appScript ??= readFile(file, 'utf8').catch((error: unknown) => {
    appScript = undefined;
    throw error;
  });
  return appScript;
}
