// The local API gateway: matches the route manifest, runs the real authorizer, applies the usage
// plan's throttles, builds API Gateway proxy events and calls the very same handler modules the
// stack deploys. Its own answers (404, 405, 401, 429) use the gateway responses of the stack.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  APIGatewayRequestAuthorizerEvent,
  Context,
} from 'aws-lambda';
import { DETAILS, envelope } from '../../shared/http/errors';
import {
  AUTHORIZER,
  type PageRoute,
  type Route,
  ROUTE_TIMEOUT_SECONDS,
  CROSS_ORIGIN_STAFF_PATHS,
  SHOPPER_CORS_HEADERS,
  STAFF_CORS_HEADERS,
  STAFF_PREFLIGHT_HEADERS,
  type ShopperRoute,
  type StaffRoute,
  THROTTLE_LIMITS,
  WEBHOOK_THROTTLE,
  type WebhookRoute,
} from '../../shared/runtime/entry-points';
import { headerValue, JSON_HEADERS } from '../../shared/http/headers';
import { echoed } from '../../shared/domain/errors';
import type { AuthorizerCache } from './authorizer-cache';
import { AuthorizerConfigurationError, checkAuthorizerAnswer, integrationAuthorizer, policyAllows } from './authorizer-policy';
import { BodyTooLarge, listen, readBody, sendJson } from './http-server';
import { RateLimiter } from './rate-limiter';

export type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
export type AuthorizerHandler = (event: APIGatewayRequestAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>;

export interface GatewayOptions {
  routes: readonly Route[];
  /** Project root the manifest's handler paths are relative to. */
  root: string;
  port: number;
  host?: string;
  /** Token buckets for the usage-plan throttles; `null` turns throttling off (benchmarks). */
  limiter?: RateLimiter | null;
  /** The twin's own control endpoints (`GET /_events`, `PUT /_clock`), by "METHOD /path"; they get the raw body. */
  control?: Record<string, (body: string | null) => Promise<unknown>>;
  /** Platform webhooks: dispatched without the authorizer and the usage plan, the raw body untouched. */
  webhooks?: readonly WebhookRoute[];
  /**
   * Shopper routes: dispatched without the authorizer and the usage plan (the handler verifies the
   * shopper), each method under its own throttle for all callers together; OPTIONS answers the CORS preflight.
   */
  shopperRoutes?: readonly ShopperRoute[];
  /** Pages for a browser (the app's home): without the authorizer and the usage plan, each under its stage method throttle. */
  pages?: readonly PageRoute[];
  /**
   * The staff routes, each /v1 route's /admin/api twin: dispatched to the route's own handler without the
   * authorizer and the usage plan (the handler verifies the admin ID token), each method under its own throttle.
   */
  staffRoutes?: readonly StaffRoute[];
  /**
   * The stage's authorizer result cache, per Authorization value, as API Gateway keeps it with that
   * header as identity source; absent, every request runs the authorizer.
   */
  authorizerCache?: AuthorizerCache;
  /** The authorizer's handler module, relative to `root`; default the manifest's (AUTHORIZER). Tests give a fixture. */
  authorizer?: string;
  /**
   * The usage plan (infra/local/twin-usage-plan.ts): an allowed /v1 request whose usageIdentifierKey it does not
   * admit is refused (API Gateway's INVALID_API_KEY), and the throttles count per that key. Absent (tests of
   * other parts), every allowed request passes and the throttles count per principalId.
   */
  usagePlan?: { admits(usageIdentifierKey: string | null | undefined): boolean };
}

/** A control endpoint's refusal of its input: answered with this status and `{ "error": message }`. */
export class ControlError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

/** A control endpoint's answer that is not JSON, such as the API reference page and its assets. */
export class RawBody {
  constructor(
    readonly contentType: string,
    readonly body: string | Buffer,
  ) {}
}

export interface Gateway {
  url: string;
  port: number;
  stop(): Promise<void>;
}

const STAGE = 'local';

/** The gateway's own answers carry the API's headers (no-store), as the stack's gateway responses do. */
const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  sendJson(res, status, body, { ...JSON_HEADERS, ...headers });

interface Match {
  route: Route;
  pathParameters: Record<string, string>;
}

/** Matches a request path against the manifest's templates; returns every route on that path. */
export function matchPath(routes: readonly Route[], path: string): Match[] {
  const segments = path.replace(/\/+$/, '').split('/');
  const matches: Match[] = [];
  for (const route of routes) {
    const template = route.path.split('/');
    if (template.length !== segments.length) continue;
    const pathParameters: Record<string, string> = {};
    const ok = template.every((part, i) => {
      const segment = segments[i]!;
      const param = /^\{(.+)\}$/.exec(part);
      if (param) {
        pathParameters[param[1]!] = segment;
        return segment.length > 0;
      }
      return part === segment;
    });
    if (ok) matches.push({ route, pathParameters });
  }
  return matches;
}

export interface GatewayRequest {
  route: Route;
  method: string;
  url: URL;
  /** Node's `rawHeaders`: name, value, name, value… */
  rawHeaders: readonly string[];
  pathParameters: Record<string, string>;
  sourceIp: string;
  requestId: string;
}

/**
 * The events API Gateway builds for one request: the REQUEST authorizer's, and the proxy
 * integration's once the authorizer has answered. Both share the request's fields, built once.
 */
export function gatewayEvents({ route, method, url, rawHeaders, pathParameters, sourceIp, requestId }: GatewayRequest): {
  authorizer: APIGatewayRequestAuthorizerEvent;
  proxy(body: string | null, authorization: APIGatewayAuthorizerResult | null, integrationLatency?: number): APIGatewayProxyEvent;
} {
  // Prototype-free maps: a header or parameter called `__proto__` or `valueOf` is just a name.
  const headers: Record<string, string> = Object.create(null);
  const multiValueHeaders: Record<string, string[]> = Object.create(null);
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    const value = rawHeaders[i + 1]!;
    headers[name] = value;
    (multiValueHeaders[name] ??= []).push(value);
  }
  const multiValueQueryStringParameters: Record<string, string[]> = Object.create(null);
  for (const [name, value] of url.searchParams) (multiValueQueryStringParameters[name] ??= []).push(value);
  const queryStringParameters: Record<string, string> = Object.create(null);
  for (const [name, values] of Object.entries(multiValueQueryStringParameters)) queryStringParameters[name] = values[values.length - 1]!;
  const hasQuery = Object.keys(queryStringParameters).length > 0;
  const hasParams = Object.keys(pathParameters).length > 0;
  const identity = { sourceIp, userAgent: headers['User-Agent'] ?? headers['user-agent'] ?? null };

  // What the REQUEST authorizer and the proxy integration both receive.
  const request = {
    resource: route.path,
    path: url.pathname,
    httpMethod: method,
    headers,
    multiValueHeaders,
    queryStringParameters: hasQuery ? queryStringParameters : null,
    multiValueQueryStringParameters: hasQuery ? multiValueQueryStringParameters : null,
    pathParameters: hasParams ? pathParameters : null,
    stageVariables: null,
  };
  return {
    authorizer: {
      type: 'REQUEST',
      // As API Gateway builds it: the request's own path (path parameters' values, not the template), no leading slash.
      methodArn: `arn:aws:execute-api:local:000000000000:local/${STAGE}/${method}/${url.pathname.replace(/^\/+|\/+$/g, '')}`,
      ...request,
      requestContext: { requestId, stage: STAGE, httpMethod: method, resourcePath: route.path, path: url.pathname, identity },
    } as unknown as APIGatewayRequestAuthorizerEvent,
    proxy: (body: string | null, authorization: APIGatewayAuthorizerResult | null, integrationLatency = 0) =>
      ({
        ...request,
        body,
        isBase64Encoded: false,
        requestContext: {
          accountId: '000000000000',
          apiId: 'local',
          stage: STAGE,
          requestId,
          httpMethod: method,
          resourcePath: route.path,
          path: `/${STAGE}${url.pathname}`,
          protocol: 'HTTP/1.1',
          requestTimeEpoch: Date.now(),
          resourceId: route.name,
          identity,
          ...(authorization ? { authorizer: integrationAuthorizer(authorization, integrationLatency) } : {}),
        },
      }) as unknown as APIGatewayProxyEvent,
  };
}

/** The Lambda context the twin hands an invocation: its remaining time counts down from the function's timeout. */
export function lambdaContext(functionName: string, requestId: string, timeoutSeconds = ROUTE_TIMEOUT_SECONDS): Context {
  const deadline = Date.now() + timeoutSeconds * 1000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const limiter = options.limiter === undefined ? new RateLimiter() : options.limiter;
  const modules = new Map<string, Promise<{ handler: unknown }>>();
  const load = (file: string) => {
    let module = modules.get(file);
    if (!module) {
      module = import(join(options.root, file)) as Promise<{ handler: unknown }>;
      modules.set(file, module);
    }
    return module;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const requestId = randomUUID();
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = (req.method ?? 'GET').toUpperCase();
    // `/docs/` is `/docs`, as the API's own paths ignore a trailing slash; `/` stays itself.
    const controlPath = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') || '/' : url.pathname;
    const control = options.control?.[`${method} ${controlPath}`];
    if (control) {
      let body: string | null;
      try {
        body = await bodyOrNull(req);
      } catch (error) {
        if (!(error instanceof BodyTooLarge)) throw error;
        return send(res, 413, { error: error.message });
      }
      let answer: unknown;
      try {
        answer = await control(body);
      } catch (error) {
        if (error instanceof ControlError) return send(res, error.statusCode, { error: error.message });
        throw error;
      }
      if (!(answer instanceof RawBody)) return send(res, 200, answer);
      res.writeHead(200, { 'Content-Type': answer.contentType });
      return res.end(answer.body);
    }
    const webhook = options.webhooks?.find((candidate) => candidate.path === url.pathname.replace(/\/+$/, ''));
    if (webhook) return dispatchWebhook(webhook, req, res, method, url, requestId);
    const page = options.pages?.find((candidate) => candidate.path === url.pathname.replace(/\/+$/, ''));
    if (page) return dispatchPage(page, res, method, url, req, requestId);
    const shopperMatches = matchPath((options.shopperRoutes ?? []) as unknown as Route[], url.pathname);
    if (shopperMatches.length > 0) return dispatchShopper(shopperMatches, req, res, method, url, requestId);
    const staffMatches = matchPath((options.staffRoutes ?? []) as unknown as Route[], url.pathname);
    if (staffMatches.length > 0) return dispatchStaff(staffMatches, req, res, method, url, requestId);
    const matches = matchPath(options.routes, url.pathname);
    if (matches.length === 0) {
      return send(res, 404, envelope(404, `No route matches ${method} ${echoed(url.pathname)}`));
    }
    const match = matches.find((candidate) => candidate.route.method === method);
    if (!match) {
      const allowed = matches.map((candidate) => candidate.route.method).join(', ');
      return send(res, 405, envelope(405, `Method ${method} is not allowed on this path. Allowed: ${allowed}`), { Allow: allowed });
    }

    let body: string | null;
    try {
      body = await bodyOrNull(req);
    } catch (error) {
      if (!(error instanceof BodyTooLarge)) throw error;
      return send(res, 413, envelope(413, error.message));
    }

    const { route } = match;
    const events = gatewayEvents({
      route,
      method,
      url,
      rawHeaders: req.rawHeaders,
      pathParameters: match.pathParameters,
      sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
      requestId,
    });

    let authorization: APIGatewayAuthorizerResult;
    let latency: number;
    try {
      ({ answer: authorization, latency } = await authorize(events.authorizer));
    } catch (error) {
      if ((error as Error)?.message === 'Unauthorized') return send(res, 401, envelope(401, DETAILS.missingAuthorization));
      // AUTHORIZER_FAILURE, or AUTHORIZER_CONFIGURATION_ERROR for an answer API Gateway cannot use: both a 500.
      const message = error instanceof AuthorizerConfigurationError ? 'Authorizer answer unusable' : 'Authorizer failed';
      console.error(JSON.stringify({ level: 'ERROR', message, requestId, error: String(error) }));
      return send(res, 500, envelope(500, DETAILS.unexpected));
    }
    // The policy against this request's method ARN, a cached answer's too. A refusal is ACCESS_DENIED, which the
    // stack's gateway response answers 401 with `$context.authorizer.detail`: the Deny's detail, empty when the
    // answer has none (an Allow whose resources do not cover this method).
    if (!policyAllows(authorization, events.authorizer.methodArn)) {
      const detail = authorization.context?.detail;
      return send(res, 401, envelope(401, detail === undefined || detail === null ? '' : String(detail)));
    }

    // The usage plan takes only a key of its own, enabled: the authorizer names it (API key source AUTHORIZER).
    // INVALID_API_KEY, which the stack's gateway response answers 401 with the invalid key's detail.
    const usage = options.usagePlan;
    if (usage && !usage.admits(authorization.usageIdentifierKey)) return send(res, 401, envelope(401, DETAILS.invalidKey));
    // The plan's throttle per API key, every method together; a strict route's method throttle per key on top.
    const caller = usage ? `key ${authorization.usageIdentifierKey}` : `principal ${authorization.principalId}`;
    const throttled =
      limiter &&
      (!limiter.take(caller, THROTTLE_LIMITS.standard) ||
        (route.throttle === 'strict' && !limiter.take(`${caller} ${method} ${route.path}`, THROTTLE_LIMITS.strict)));
    if (throttled) return send(res, 429, envelope(429, DETAILS.rateLimited));

    return invoke(route, events.proxy(body, authorization, latency), res, requestId);
  };

  /** One run of the authorizer function: its answer, checked as API Gateway checks it, and how long it took. */
  const runAuthorizer = async (event: APIGatewayRequestAuthorizerEvent) => {
    const started = performance.now();
    const answer = checkAuthorizerAnswer(
      await ((await load(options.authorizer ?? AUTHORIZER.handler)).handler as AuthorizerHandler)(event),
    );
    return { answer, latency: Math.round(performance.now() - started) };
  };

  /**
   * The authorizer's answer, from the cache when it holds one (latency 0: no function ran); an unusable answer is
   * never cached. With an identity source, API Gateway refuses a missing or empty header itself (the UNAUTHORIZED
   * gateway response), without the authorizer.
   */
  const authorize = async (event: APIGatewayRequestAuthorizerEvent): Promise<{ answer: APIGatewayAuthorizerResult; latency: number }> => {
    const cache = options.authorizerCache;
    if (!cache || cache.ttlSeconds === 0) return runAuthorizer(event);
    const identity = headerValue(event.headers, 'authorization');
    if (identity === undefined || identity.trim() === '') throw new Error('Unauthorized');
    const cached = cache.get(identity);
    if (cached) return { answer: cached, latency: 0 };
    const generation = cache.generation;
    const run = await runAuthorizer(event);
    cache.set(identity, run.answer, generation);
    return run;
  };

  /** Runs the route's handler with the proxy event and writes its result, as the Lambda proxy integration does. */
  const invoke = async (route: { name: string; handler: string }, event: APIGatewayProxyEvent, res: ServerResponse, requestId: string) => {
    try {
      const handler = (await load(route.handler)).handler as ProxyHandler;
      const result = await handler(event, lambdaContext(route.name, requestId));
      res.writeHead(result.statusCode, { ...(result.headers as Record<string, string>), 'x-amzn-RequestId': requestId });
      res.end(result.body);
    } catch (error) {
      // What API Gateway does when the integration itself fails: a 5XX gateway response.
      console.error(JSON.stringify({ level: 'ERROR', message: 'Handler failed', route: route.name, requestId, error: String(error) }));
      send(res, 500, envelope(500, DETAILS.unexpected));
    }
  };

  // API Gateway's plain proxy integration: no authorizer, no usage plan, but the stage's own throttle of the
  // webhook's method, all callers together (WEBHOOK_THROTTLE, the stack's methodOptions); an oversized body
  // is refused as the receiver would refuse it, with 401, since it cannot be a platform delivery.
  const dispatchWebhook = async (
    route: WebhookRoute,
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    url: URL,
    requestId: string,
  ) => {
    if (method !== route.method)
      return send(res, 405, envelope(405, `Method ${method} is not allowed on this path. Allowed: ${route.method}`), {
        Allow: route.method,
      });
    // The stage throttles before anything is read, as API Gateway does; the body is never looked at.
    if (limiter && !limiter.take(`stage ${route.method} ${route.path}`, WEBHOOK_THROTTLE))
      return send(res, 429, envelope(429, DETAILS.rateLimited));
    let body: string | null;
    try {
      body = await bodyOrNull(req);
    } catch (error) {
      if (!(error instanceof BodyTooLarge)) throw error;
      return send(res, 401, envelope(401, 'Webhook signature could not be verified'));
    }
    const routeLike: Route = { ...route, scope: 'full', throttle: 'standard' };
    const events = gatewayEvents({
      route: routeLike,
      method,
      url,
      rawHeaders: req.rawHeaders,
      pathParameters: {},
      sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
      requestId,
    });
    return invoke(route, events.proxy(body, null), res, requestId);
  };

  // As the stack's page methods: no authorizer, no API key, the stage's method throttle; the handler answers
  // the page or the bounce that obtains an ID token.
  const dispatchPage = async (route: PageRoute, res: ServerResponse, method: string, url: URL, req: IncomingMessage, requestId: string) => {
    if (method !== route.method)
      return send(res, 405, envelope(405, `Method ${method} is not allowed on this path. Allowed: ${route.method}`), {
        Allow: route.method,
      });
    if (limiter && !limiter.take(`page ${route.method} ${route.path}`, route.throttle))
      return send(res, 429, envelope(429, DETAILS.rateLimited));
    const events = gatewayEvents({
      route: { ...route, scope: 'read', throttle: 'standard' },
      method,
      url,
      rawHeaders: req.rawHeaders,
      pathParameters: {},
      sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
      requestId,
    });
    return invoke(route, events.proxy(null, null), res, requestId);
  };

  // As the stack's shopper methods: no authorizer, no API key; the stage's method throttle for each one; the
  // preflight a mock answer. Every answer of the gateway's own carries the CORS headers too.
  const dispatchShopper = async (
    matches: Match[],
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    url: URL,
    requestId: string,
  ) => {
    if (method === 'OPTIONS') {
      res.writeHead(204, { ...SHOPPER_CORS_HEADERS, 'x-amzn-RequestId': requestId });
      return res.end();
    }
    const match = matches.find((candidate) => candidate.route.method === method);
    if (!match) {
      const allowed = [...matches.map((candidate) => candidate.route.method), 'OPTIONS'].join(', ');
      return send(res, 405, envelope(405, `Method ${method} is not allowed on this path. Allowed: ${allowed}`), {
        Allow: allowed,
        ...SHOPPER_CORS_HEADERS,
      });
    }
    const route = match.route as unknown as ShopperRoute;
    let body: string | null;
    try {
      body = await bodyOrNull(req);
    } catch (error) {
      if (!(error instanceof BodyTooLarge)) throw error;
      return send(res, 413, envelope(413, error.message), { ...SHOPPER_CORS_HEADERS });
    }
    if (limiter && !limiter.take(`shopper ${method} ${route.path}`, route.throttle)) {
      return send(res, 429, envelope(429, DETAILS.rateLimited), { ...SHOPPER_CORS_HEADERS });
    }
    const events = gatewayEvents({
      route: { ...route, scope: route.method === 'GET' ? 'read' : 'full', throttle: 'standard' },
      method,
      url,
      rawHeaders: req.rawHeaders,
      pathParameters: match.pathParameters,
      sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
      requestId,
    });
    return invoke(route, events.proxy(body, null), res, requestId);
  };

  // As the stack's staff methods: the /v1 route's own function, on a resource of its own without the authorizer
  // or an API key; the stage's method throttle for each one. The function verifies the ID token first. The
  // preflight of a path the admin's extensions call is a mock answer; the gateway's own answers carry CORS too.
  const dispatchStaff = async (
    matches: Match[],
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    url: URL,
    requestId: string,
  ) => {
    if (method === 'OPTIONS' && matches.some((candidate) => CROSS_ORIGIN_STAFF_PATHS.includes(candidate.route.path))) {
      res.writeHead(204, { ...STAFF_PREFLIGHT_HEADERS, 'x-amzn-RequestId': requestId });
      return res.end();
    }
    const match = matches.find((candidate) => candidate.route.method === method);
    // As the stack, which has no 405 mock on the staff paths: API Gateway's own 404.
    if (!match) return send(res, 404, envelope(404, `No route matches ${method} ${echoed(url.pathname)}`), { ...STAFF_CORS_HEADERS });
    const staff = match.route as unknown as StaffRoute;
    let body: string | null;
    try {
      body = await bodyOrNull(req);
    } catch (error) {
      if (!(error instanceof BodyTooLarge)) throw error;
      return send(res, 413, envelope(413, error.message), { ...STAFF_CORS_HEADERS });
    }
    if (limiter && !limiter.take(`staff ${method} ${staff.path}`, staff.throttle)) {
      return send(res, 429, envelope(429, DETAILS.rateLimited), { ...STAFF_CORS_HEADERS });
    }
    const events = gatewayEvents({
      route: { ...staff.route, path: staff.path },
      method,
      url,
      rawHeaders: req.rawHeaders,
      pathParameters: match.pathParameters,
      sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
      requestId,
    });
    return invoke(staff.route, events.proxy(body, null), res, requestId);
  };

  return listen(handle, options.port, options.host ?? '127.0.0.1', (error, res) => {
    console.error(JSON.stringify({ level: 'ERROR', message: 'Gateway failed', error: String(error) }));
    send(res, 500, envelope(500, DETAILS.unexpected));
  });
}

/** The request's body, or null without one: API Gateway hands a bodiless request over with `body: null`. */
async function bodyOrNull(req: IncomingMessage): Promise<string | null> {
  return (await readBody(req)) || null;
}
