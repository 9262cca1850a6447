// Shopify's admin ID tokens for the simulated shops: POST /_id_tokens `{ "shop": "<shop id>", "user_id": "42" }`
// answers `{ "token" }`, a token as App Bridge hands the embedded app for that staff user, signed with the
// shop's client_secret and valid five minutes of real time (SURFACES-CONTRACT.md, "Staff routes"). A shop
// without client credentials has no embedded app: 422.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody, sendJson } from '../http-server';
import { methodNotAllowed } from './simulator-http';
import type { SimulatedShops } from './simulated-shops';
import { mintIdToken } from './shopify-tokens';

const USER_ID = /^\d{1,20}$/;

export function createIdTokens(shops: SimulatedShops, realNow: () => number = Date.now) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'POST') return methodNotAllowed(res, 'POST');
    let body: unknown;
    try {
      body = JSON.parse(await readBody(req));
    } catch {
      return sendJson(res, 400, { error: 'The body must be JSON: { "shop": "<shop id>", "user_id": "<staff user id>" }' });
    }
    const fields = (typeof body === 'object' && body !== null ? body : {}) as { shop?: unknown; user_id?: unknown };
    if (typeof fields.shop !== 'string' || !shops.has(fields.shop))
      return sendJson(res, 404, { error: `No shop '${String(fields.shop)}'` });
    if (typeof fields.user_id !== 'string' || !USER_ID.test(fields.user_id)) {
      return sendJson(res, 400, { error: 'user_id must be a numeric string such as "42"' });
    }
    const credentials = shops.credentials(fields.shop);
    if (!credentials) {
      return sendJson(res, 422, {
        error: `Shop '${fields.shop}' has no client_id/client_secret: a shop with legacy credentials has no embedded app`,
      });
    }
    const token = await mintIdToken(credentials, shops.identity(fields.shop).domain, fields.user_id, realNow());
    sendJson(res, 200, { token });
  };
}
