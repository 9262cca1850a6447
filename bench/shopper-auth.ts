// The Authorization header of a bench request: an API key, or for a shopper row a customer session token
// of the demo shop's app, minted as Shopify mints them (five minutes of real time). Tokens are minted
// before each row and reused while they have over two minutes left, so no request carries an expired one.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../infra/local/twin';
import type { BenchEndpoint } from './endpoints';
import { mintSessionToken } from '../infra/local/simulator/shopify-tokens';

const REUSE_MS = 3 * 60 * 1000;

interface DemoPlatform {
  shop_domain: string;
  client_id: string;
  client_secret: string;
}

let app: DemoPlatform | undefined;
const tokens = new Map<string, { token: string; mintedAt: number }>();

function demoApp(): DemoPlatform {
  app ??= (JSON.parse(readFileSync(join(PROJECT_ROOT, 'config', 'demo.json'), 'utf8')) as { shops: Array<{ platform: DemoPlatform }> })
    .shops[0]!.platform;
  return app;
}

const tokenKey = (customerId: string | null) => customerId ?? 'guest';

/** Mints (or keeps) the session tokens the shopper rows among `endpoints` send. */
export async function refreshShopperTokens(endpoints: ReadonlyArray<Pick<BenchEndpoint, 'shopper'>>): Promise<void> {
  const now = Date.now();
  for (const { shopper } of endpoints) {
    if (!shopper) continue;
    const held = tokens.get(tokenKey(shopper.customerId));
    if (held && now - held.mintedAt < REUSE_MS) continue;
    const { shop_domain, client_id, client_secret } = demoApp();
    const token = await mintSessionToken({ clientId: client_id, clientSecret: client_secret }, shop_domain, shopper.customerId, now);
    tokens.set(tokenKey(shopper.customerId), { token, mintedAt: now });
  }
}

/** The request's Authorization value: the bare API key, or `Bearer <session token>` (refreshShopperTokens first). */
export function authorizationOf(endpoint: Pick<BenchEndpoint, 'key' | 'shopper'>): string {
  if (!endpoint.shopper) return endpoint.key!;
  const held = tokens.get(tokenKey(endpoint.shopper.customerId));
  if (!held) throw new Error('No session token minted for this shopper row: call refreshShopperTokens first');
  return `Bearer ${held.token}`;
}
