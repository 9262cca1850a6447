// Shopify's customer session tokens for the simulated shops: POST /_session_tokens
// `{ "shop": "<shop id>", "customer_id": "1001" }` answers `{ "token" }`, a token as a customer account UI
// extension receives it (without `customer_id`: a guest's), signed with the shop's client_secret and valid
// five minutes of real time (SURFACES-CONTRACT.md). A shop without client credentials has no extensions: 422.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody, sendJson } from '../http-server';
import { methodNotAllowed } from './simulator-http';
import type { SimulatedShops } from './simulated-shops';
import { mintSessionToken } from './shopify-tokens';

const CUSTOMER_ID = /^\d{1,20}$/;

export function createSessionTokens(shops: SimulatedShops, realNow: () => number = Date.now) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'POST') return methodNotAllowed(res, 'POST');
    let body: unknown;
    try {
      body = JSON.parse(await readBody(req));
    } catch {
      return sendJson(res, 400, { error: 'The body must be JSON: { "shop": "<shop id>", "customer_id"?: "<id>" }' });
    }
    const fields = (typeof body === 'object' && body !== null ? body : {}) as { shop?: unknown; customer_id?: unknown };
    if (typeof fields.shop !== 'string' || !shops.has(fields.shop))
      return sendJson(res, 404, { error: `No shop '${String(fields.shop)}'` });
    const customerId = fields.customer_id ?? null;
    if (customerId !== null && (typeof customerId !== 'string' || !CUSTOMER_ID.test(customerId))) {
      return sendJson(res, 400, { error: 'customer_id must be a numeric string such as "1001"' });
    }
    const credentials = shops.credentials(fields.shop);
    if (!credentials) {
      return sendJson(res, 422, {
        error: `Shop '${fields.shop}' has no client_id/client_secret: a shop with legacy credentials has no extensions`,
      });
    }
    const token = await mintSessionToken(credentials, shops.identity(fields.shop).domain, customerId, realNow());
    sendJson(res, 200, { token });
  };
}
