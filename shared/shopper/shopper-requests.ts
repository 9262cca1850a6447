// The shopper routes' edge: who the shopper is (SURFACES-CONTRACT.md), verified before anything else of the
// request is read, and what the routes read of a request once it is: a redemption's points, the
// activity's page and the cart an estimate prices. A customer id anywhere in the path, query or body is never read: the shopper is the
// customer the app proxy signature or the session token names, and no one else.
import type { APIGatewayProxyEvent } from 'aws-lambda';
import * as z from 'zod/mini';
import { badRequest, unauthorized } from '../http/errors';
import { decimalToMinor, minorDigits } from '../domain/money';
import { headerValue } from '../http/headers';
import { positiveInteger } from '../http/query';
import { createShopperHandler, type Shopper, type ShopperHandlerOptions, type ShopperRequest } from '../http/shopper-handler';
import type { HttpResult } from '../http/handler';
import { parseBody } from '../http/validation';
import { APP_PROXY_PARAMETERS, verifyAppProxy } from './app-proxy';
import type { EstimateCart, EstimateLine } from './shopper-estimate';
import { verifySessionToken } from './session-token';
import { shopAppOf, type ShopApp } from './shopper-apps';

export const SIGN_IN_DETAIL = 'Sign in to your account to join the program, see your points and redeem rewards';

const NO_IDENTITY =
  "No shopper identity: call through the shop's app proxy (/apps/loyalty/...) or send a customer session token as 'Authorization: Bearer <token>'";

/**
 * What the shopper routes read of a proxied query (the activity's page), each value short and without `=`: the
 * route itself answers a value that is no page number with its 400. With every key fixed and the customer id
 * digits only, such a value cannot move where the signed customer's pair ends (shared/shopper/app-proxy.ts).
 */
export const SHOPPER_QUERY_KEYS = { 'page[number]': /^[^=]{0,20}$/, 'page[size]': /^[^=]{0,20}$/ } as const;

/** The query's pairs as API Gateway hands them over: every value of a repeated key, in the order sent. */
function queryPairs(event: APIGatewayProxyEvent): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  const multi = event.multiValueQueryStringParameters;
  if (multi) {
    for (const [key, values] of Object.entries(multi)) for (const value of values ?? []) pairs.push([key, value]);
    return pairs;
  }
  for (const [key, value] of Object.entries(event.queryStringParameters ?? {})) if (value !== undefined) pairs.push([key, value]);
  return pairs;
}

/**
 * The verified shopper. A request with any of the app proxy's parameters is verified as one (its
 * signature covers the whole query); otherwise the `Authorization: Bearer` session token. Each refusal is a 401
 * naming what failed.
 */
export async function identifyShopper(event: APIGatewayProxyEvent): Promise<Shopper> {
  const realNow = Date.now();
  const apps = new Map<string, ShopApp>();
  const appOf = async (shopDomain: string) => {
    const app = await shopAppOf(shopDomain);
    if (!('refused' in app)) apps.set(shopDomain, app);
    return app;
  };
  const pairs = queryPairs(event);
  if (pairs.some(([key]) => (APP_PROXY_PARAMETERS as readonly string[]).includes(key))) {
    const result = await verifyAppProxy(pairs, appOf, realNow, SHOPPER_QUERY_KEYS);
    if (!result.verified) throw unauthorized(result.reason);
    return { shopId: apps.get(result.shopDomain)!.shopId, shopDomain: result.shopDomain, customerId: result.customerId, via: 'app_proxy' };
  }
  const authorization = headerValue(event.headers, 'authorization');
  if (authorization === undefined || authorization.trim() === '') throw unauthorized(NO_IDENTITY);
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!bearer) throw unauthorized("The Authorization header must be 'Bearer <customer session token>'");
  const result = await verifySessionToken(bearer[1]!, appOf, realNow);
  if (!result.verified) throw unauthorized(result.reason);
  return {
    shopId: apps.get(result.shopDomain)!.shopId,
    shopDomain: result.shopDomain,
    customerId: result.customerId,
    via: 'session_token',
  };
}

/** A shopper route's handler: the shopper verified first, then `run`. */
export function shopperHandler(run: (request: ShopperRequest) => Promise<HttpResult>, options: ShopperHandlerOptions = {}) {
  return createShopperHandler(identifyShopper, run, options);
}

/** The signed-in customer, or a 401 asking a guest to sign in. */
export function signedInCustomer(shopper: Shopper): string {
  if (shopper.customerId === null) throw unauthorized(SIGN_IN_DETAIL);
  return shopper.customerId;
}

// Only `points` is read: whatever else the body holds (a customer id, say) is ignored.
export const redeemBodySchema = z.object({ points: z.optional(z.int({ error: 'points must be an integer' })) });

/** The body of POST /shopper/rewards/{id}/redeem: `{}`, or `{ "points": N }` for a flexible reward. */
export function parseRedeemBody(body: unknown): { points: number | null } {
  return { points: parseBody(redeemBodySchema, body).points ?? null };
}

export const ACTIVITY_PAGE = { default: 10, max: 50 } as const;

/** The activity's page: `page[number]`, `page[size]` (default 10; above 50 read as 50). */
export function parseActivityPage(query: Record<string, string>): { number: number; size: number; offset: number } {
  const number = query['page[number]'] === undefined ? 1 : positiveInteger('page[number]', query['page[number]']);
  const requested = query['page[size]'] === undefined ? ACTIVITY_PAGE.default : positiveInteger('page[size]', query['page[size]']);
  const size = Math.min(requested, ACTIVITY_PAGE.max);
  return { number, size, offset: (number - 1) * size };
}

/** A cart holds at most this many lines (Shopify's checkout holds at most 500). */
export const ESTIMATE_MAX_LINES = 500;

// A non-negative decimal string, as Shopify writes money: digits and an optional fraction, no sign or exponent.
const AMOUNT = /^\d{1,12}(?:\.\d{1,6})?$/;
const AMOUNT_ERROR = 'must be a non-negative decimal string such as "89.00"';
const amount = () => z.string({ error: AMOUNT_ERROR }).check(z.regex(AMOUNT, { error: AMOUNT_ERROR }));
// Ids are read as the checkout sends them (a number, a string or a gid) and never used to price the cart.
const id = z.optional(z.union([z.string(), z.number()]));

export const estimateBodySchema = z.object({
  lines: z
    .array(
      z.object({
        variant_id: id,
        product_id: id,
        quantity: z.int({ error: 'must be a positive integer' }).check(z.positive({ error: 'must be a positive integer' })),
        price: amount(),
        gift_card: z.optional(z.boolean({ error: 'must be true or false' })),
        tax: z.optional(amount()),
      }),
      { error: 'must be a list of cart lines' },
    )
    .check(
      z.minLength(1, { error: 'must hold at least one line' }),
      z.maxLength(ESTIMATE_MAX_LINES, { error: `must hold at most ${ESTIMATE_MAX_LINES} lines` }),
    ),
  discount: z.optional(amount()),
  currency: z.string({ error: "must be the cart's ISO 4217 currency code, the shop's currency" }),
});

/** An amount as minor units of a currency with `digits` decimals; a 400 when it is more precise than the currency. */
function cartMinor(field: string, text: string, currency: string, digits: number): number {
  const fraction = text.split('.')[1] ?? '';
  if (/[1-9]/.test(fraction.slice(digits))) throw badRequest(`${field}: ${text} has more decimals than ${currency} has (${digits})`);
  const minor = decimalToMinor(text, digits);
  if (!Number.isSafeInteger(minor)) throw badRequest(`${field}: ${text} is too large`);
  return minor;
}

/**
 * The body of POST /shopper/estimate: `{ lines: [{ variant_id, product_id, quantity, price, gift_card, tax? }],
 * discount, currency }`, in the shop's currency. A 400 names the first problem: no lines, a quantity that is
 * not a positive integer, a price, tax or discount that is not a non-negative decimal string (or is more
 * precise than the currency), another currency than the shop's. Whatever else the body holds is ignored.
 */
export function parseEstimateBody(body: unknown, shopCurrency: string): EstimateCart {
  const parsed = parseBody(estimateBodySchema, body);
  if (parsed.currency.trim().toUpperCase() !== shopCurrency.toUpperCase()) {
    throw badRequest(`currency: ${parsed.currency} is not the shop's currency (${shopCurrency})`);
  }
  const digits = minorDigits(shopCurrency);
  let total = 0;
  const lines = parsed.lines.map((line, index): EstimateLine => {
    const unitPriceMinor = cartMinor(`lines.${index}.price`, line.price, shopCurrency, digits);
    const lineMinor = unitPriceMinor * line.quantity;
    total += lineMinor;
    if (!Number.isSafeInteger(total)) throw badRequest(`lines.${index}: the cart's price × quantity is too large`);
    return {
      quantity: line.quantity,
      unitPriceMinor,
      giftCard: line.gift_card ?? false,
      taxMinor: line.tax === undefined ? 0 : cartMinor(`lines.${index}.tax`, line.tax, shopCurrency, digits),
    };
  });
  const discountMinor = parsed.discount === undefined ? 0 : cartMinor('discount', parsed.discount, shopCurrency, digits);
  return { lines, discountMinor };
}
