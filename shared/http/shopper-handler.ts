// The shopper routes' middy chain (SURFACES-CONTRACT.md, /shopper/...): the same observability, log
// context and error envelope as every endpoint, but no API key. The shopper is verified first, by the
// function the feature hands in (an app proxy signature or a customer session token), before the body or
// anything else of the request is read; every answer, errors included, carries the CORS headers and
// `Cache-Control: private, no-store`. An Idempotency-Key is scoped to the verified shopper.
import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { IdempotencyClaim } from '../data/idempotency-repository';
import { spendShopperBudget } from '../data/shopper-budget-repository';
import { observedChain } from '../observability/event-handler';
import { logger } from '../observability/powertools';
import { env } from '../runtime/env';
import { withInvocationDeadline } from '../runtime/invocation';
import { ApiError, DETAILS, unauthorized, unsupportedMediaType } from './errors';
import { headerValue } from './headers';
import { type HttpResult, jsonResponse } from './middleware/endpoint';
import { errorEnvelope } from './middleware/error-envelope';
import { withIdempotency } from './middleware/idempotency';
import { jsonBody } from './middleware/json-body';
import { logContext } from './middleware/log-context';
import { decodePathParameter } from './middleware/path-parameters';
import { SHOPPER_BUDGET, SHOPPER_CORS_HEADERS, shopperRouteClass } from '../runtime/entry-points';

/** The verified shopper: the shop, and the signed-in customer (null for a guest). Nothing else names them. */
export interface Shopper {
  shopId: string;
  shopDomain: string;
  customerId: string | null;
  /** How the request proved it: Shopify's app proxy signature or a customer session token. */
  via: 'app_proxy' | 'session_token';
}

export interface ShopperRequest {
  shopper: Shopper;
  event: APIGatewayProxyEvent;
  /** Parsed JSON body (undefined for handlers without a body). */
  body: unknown;
  /** A decoded path parameter. */
  path(name: string): string;
  /** The request's claim on its Idempotency-Key (idempotent routes, a signed-in shopper, the header sent). */
  idempotency?: IdempotencyClaim;
}

export interface ShopperHandlerOptions {
  /** Parse the request body as JSON; an absent or blank body reads as `{}`. */
  jsonBody?: boolean;
  /** Honour the Idempotency-Key header, scoped to the verified shopper. */
  idempotent?: boolean;
  /** A POST that writes nothing (its route's `readOnly`): it spends the shop's read budget. */
  readOnly?: boolean;
}

/** Headers of every shopper answer: CORS for any storefront or extension origin, and never cached by a proxy. */
export const SHOPPER_RESPONSE_HEADERS: Readonly<Record<string, string>> = {
  ...SHOPPER_CORS_HEADERS,
  'Cache-Control': 'private, no-store',
};

const verified = new WeakMap<APIGatewayProxyEvent, Shopper>();

function shopperOf(event: APIGatewayProxyEvent): Shopper {
  const shopper = verified.get(event);
  // Only reachable if the chain were built without its identity step.
  if (!shopper) throw unauthorized('The shopper could not be verified');
  return shopper;
}

/** First of the chain's own steps (its `after` and `onError` run last): the headers on whatever is answered. */
const shopperHeaders = (): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => {
  const stamp = (request: middy.Request<APIGatewayProxyEvent, APIGatewayProxyResult>) => {
    if (request.response) request.response = { ...request.response, headers: { ...request.response.headers, ...SHOPPER_RESPONSE_HEADERS } };
  };
  return { after: async (request) => stamp(request), onError: async (request) => stamp(request) };
};

/** Verifies the shopper before anything else of the request is read; a refusal is a 401 in the envelope. */
const shopperIdentity = (
  identify: (event: APIGatewayProxyEvent) => Promise<Shopper>,
): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => ({
  before: async (request) => {
    const shopper = await identify(request.event);
    verified.set(request.event, shopper);
    logger.appendKeys({ shop: shopper.shopId, customer: shopper.customerId ?? 'guest', via: shopper.via });
  },
});

/**
 * Right after the shopper is verified, before anything else of the request is read: one request from the
 * shop's own budget for the route's class (SHOPPER_BUDGET), counted in the table so that every function
 * container shares it; a shop past it gets 429 in the envelope (with the CORS headers, as every answer). A
 * refused identity never reaches it, so a caller without one spends no shop's budget (docs/decisions.md,
 * "Each shop its own shopper budget").
 */
const shopBudget = (readOnly: boolean): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => ({
  before: async (request) => {
    if (!env().SHOPPER_BUDGET) return;
    const routeClass = shopperRouteClass({ method: request.event.httpMethod, readOnly });
    const taken = await spendShopperBudget(shopperOf(request.event).shopId, routeClass, SHOPPER_BUDGET[routeClass]);
    if (!taken) throw new ApiError(429, DETAILS.rateLimited);
  },
});

/**
 * A write must say its body is JSON (`Content-Type: application/json`, any parameters), or it is a 415 before the
 * body is read: a form posted from another page of the shop (through the app proxy, with the shopper's cookie)
 * can carry only a form or text type, so it never spends a shopper's points. A JSON type from another origin needs
 * a CORS preflight, which only the storefront's and the extensions' own calls make.
 */
const jsonContentType = (): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => ({
  before: async (request) => {
    const type = (headerValue(request.event.headers ?? {}, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json') throw unsupportedMediaType(DETAILS.unsupportedMediaType);
  },
});

/** A bodiless POST (a join, a fixed reward's redeem) is `{}`: the storefront need not send one. */
const emptyBodyIsObject = (): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => ({
  before: async (request) => {
    const body = request.event.body;
    if (body === null || body === undefined || (typeof body === 'string' && body.trim() === '')) request.event.body = '{}';
  },
});

export function createShopperHandler(
  identify: (event: APIGatewayProxyEvent) => Promise<Shopper>,
  run: (request: ShopperRequest) => Promise<HttpResult>,
  options: ShopperHandlerOptions = {},
): middy.MiddyfiedHandler<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context> {
  const chain = observedChain<APIGatewayProxyEvent, APIGatewayProxyResult>()
    .use(shopperHeaders())
    .use(logContext())
    .use(errorEnvelope())
    .use(shopperIdentity(identify))
    .use(shopBudget(options.readOnly === true));
  if (options.jsonBody) chain.use(jsonContentType()).use(emptyBodyIsObject()).use(jsonBody());
  return chain.handler(async (event, context) => {
    const shopper = shopperOf(event);
    const pathParameters = event.pathParameters ?? {};
    const body = event.body as unknown;
    const remainingMs = context.getRemainingTimeInMillis();
    const respond = async (idempotency?: IdempotencyClaim) => {
      const path = (name: string) => decodePathParameter(pathParameters[name] ?? '');
      const result = await run({ shopper, event, body, path, ...(idempotency ? { idempotency } : {}) });
      return jsonResponse(result.statusCode, result.body);
    };
    // One record per shop, route and key as on /v1, the route naming the shopper: another shopper's key
    // of the same value is another request. A guest holds no key (the routes that honour one refuse guests).
    const scoped = options.idempotent && shopper.customerId !== null;
    return withInvocationDeadline(remainingMs, () =>
      scoped
        ? withIdempotency(
            shopper.shopId,
            event,
            body,
            remainingMs,
            respond,
            `${event.httpMethod} ${event.resource} customer:${shopper.customerId}`,
          )
        : respond(),
    );
  });
}
