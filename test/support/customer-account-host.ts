// A local page that plays Shopify's customer account host for the loyalty extensions, for a real
// Chromium, with the twin's own host (infra/local/simulator/simulated-customer-account.ts: the `shopify`
// global the extensions read, the STAND-IN Polaris components, the targets' real bundles) on an origin of
// its own whose service URL the test chooses (an unreachable one, say). Its session tokens come from the
// platform simulator's POST /_session_tokens, for `?customer=ID` or a guest. The extension then calls the
// twin's real /shopper routes, cross-origin, as it calls the service from Shopify's sandbox. axe-core is
// served from node_modules for the accessibility audit.
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { customerAccountAssets, type HostedFile } from '../../infra/local/simulator/simulated-customer-account';

export interface CustomerAccountHost {
  /** The page for a target and a customer (absent: a guest's token). */
  pageUrl(target: 'page' | 'block', customerId?: string): string;
  /** Where axe-core's browser build is served. */
  axeUrl: string;
  stop(): Promise<void>;
}

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
  const assets = await customerAccountAssets(options.serviceUrl);
  const files: Record<string, HostedFile> = {
    '/': { type: 'text/html', body: HTML },
    ...Object.fromEntries(Object.entries(assets).map(([name, file]) => [`/${name}`, file])),
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
