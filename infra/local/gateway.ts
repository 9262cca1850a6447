// The local API gateway: matches the route manifest, runs the real authorizer, applies the usage
// plan's throttles, builds API Gateway proxy events (as an edge-optimized REST API hands them over) and calls
// the very same handler modules the stack deploys, within Lambda's limits: the function's timeout, the REST
// API's 29 s, the 6 MB payloads, the proxy result's shape. Its own answers (400, 404, 405, 401, 413, 415, 429,
// 500, 502, 504) use the gateway responses of the stack. docs/local-twin.md lists what still differs.
import { randomBytes, randomUUID } from 'node:crypto';
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
  isStaffResource,
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
  /**
   * Multiplies every function timeout and the REST API's 29 s integration timeout (default 1): a test ends a
   * function at its 10 s timeout with 0.001, in 10 ms. The handler's context counts down the scaled time.
   */
  timeScale?: number;
  /**
   * The API's binary media types (the stack declares none): a result with `isBase64Encoded` is decoded to bytes
   * only when the request's first Accept type matches one; otherwise its body goes out as the base64 text.
   */
  binaryMediaTypes?: readonly string[];
  /** The authorizer's handler module, relative to `root`; default the manifest's (AUTHORIZER). Tests give a fixture. */
  authorizer?: string;
  /**
   * The usage plan (infra/local/twin-usage-plan.ts): an allowed /v1 request whose usageIdentifierKey it does not
   * admit is refused (API Gateway's INVALID_API_KEY), and the throttles count per that key. Absent (tests of
   * other parts), every allowed request passes and the throttles count per principalId.
   */
  usagePlan?: { admits(usageIdentifierKey: string | null | undefined): boolean };
}

/** API Gateway's payload limit: a larger request body is refused with 413 before anything runs. */
export const API_PAYLOAD_BYTES = 10 * 1024 * 1024;
/** Lambda's limit on a synchronous invocation's payload, the event's JSON and the result's alike (6 MB as Lambda counts). */
export const LAMBDA_PAYLOAD_BYTES = 6 * 1024 * 1024;
/** The REST API's integration timeout: past it API Gateway answers 504, whatever the function's own timeout. */
export const INTEGRATION_TIMEOUT_SECONDS = 29;
/** The only keys a Lambda proxy result may have; any other makes it malformed (502). */
const PROXY_RESULT_KEYS = new Set(['statusCode', 'headers', 'multiValueHeaders', 'body', 'isBase64Encoded']);
/** Characters API Gateway refuses unencoded in a query string (400, before the authorizer). */
const REFUSED_QUERY_CHARACTERS = /[|{}]/;

/** A control endpoint's refusal of its input: answered with this status and `{ "error": message }`. */
export class ControlError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

/** A control endpoint's JSON answer with headers of its own (the jobs run's `Server-Timing`). */
export class WithHeaders {
  constructor(
    readonly body: unknown,
    readonly headers: Record<string, string>,
  ) {}
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
  /**
   * Settles once no handler invocation runs, those answered 502 or 504 at their timeout included (Lambda would
   * have stopped them; the twin lets them finish): an audit of the table waits for it.
   */
  idle(): Promise<void>;
}

const STAGE = 'local';

/** The gateway's own answers carry the API's headers (no-store), as the stack's gateway responses do. */
const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  sendJson(res, status, body, { ...JSON_HEADERS, ...headers });

/** Headers of every gateway response of the stack (infra/cdk/constructs/loyalty-api.ts). */
const GATEWAY_RESPONSE_HEADERS = { ...JSON_HEADERS, 'Access-Control-Allow-Origin': '*' };

/** The gateway's own answer as the stack's gateway response for it: `status` and the envelope with `detail`. */
const sendGatewayResponse = (res: ServerResponse, status: number, detail: string, headers: Record<string, string> = {}) =>
  sendJson(res, status, envelope(status, detail), { ...GATEWAY_RESPONSE_HEADERS, ...headers });

/**
 * A request body's media type as API Gateway picks the mapping template of a mock: without a Content-Type
 * it is application/json.
 */
function mediaTypeOf(rawHeaders: readonly string[]): string {
  let contentType: string | undefined;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() === 'content-type') contentType = rawHeaders[i + 1];
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return type === '' ? 'application/json' : type;
}

/**
 * Whether a mock method of the stack (the 405s, the preflights) answers this request: its only request template
 * is application/json and its passthrough WHEN_NO_TEMPLATES, so API Gateway refuses any other type with 415.
 */
const mockAccepts = (req: IncomingMessage) => mediaTypeOf(req.rawHeaders) === 'application/json';

/** Whether a media type range of binaryMediaTypes (`image/*`, `*\/*`) matches a type. */
function mediaTypeMatches(range: string, type: string): boolean {
  const [rangeType, rangeSubtype] = range.toLowerCase().split('/');
  const [typeType, typeSubtype] = type.toLowerCase().split('/');
  return (rangeType === '*' || rangeType === typeType) && (rangeSubtype === '*' || rangeSubtype === typeSubtype);
}

/** A proxy result as API Gateway takes it, or why it is malformed. */
type ProxyAnswer =
  | { ok: true; statusCode: number; headers: Record<string, string[]>; body: string; isBase64Encoded: boolean }
  | { ok: false; reason: string };

const isHeaderValue = (value: unknown) => typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What API Gateway makes of a function's result: the JSON Lambda returns (over 6 MB, a function error) checked as
 * a Lambda proxy result, `headers` and `multiValueHeaders` merged as API Gateway merges them (every value of
 * both, a name's value given in both once).
 */
export function proxyAnswer(result: unknown): ProxyAnswer {
  let json: string | undefined;
  try {
    json = JSON.stringify(result);
  } catch (error) {
    return { ok: false, reason: `Result is not JSON: ${String(error)}` };
  }
  // Lambda returns `null` for a function that returned nothing.
  json ??= 'null';
  if (Buffer.byteLength(json) > LAMBDA_PAYLOAD_BYTES)
    return { ok: false, reason: 'Response payload size exceeded maximum allowed payload size' };
  const value = JSON.parse(json) as unknown;
  if (!isPlainObject(value)) return { ok: false, reason: 'Malformed Lambda proxy response: not an object' };
  const unknown = Object.keys(value).filter((key) => !PROXY_RESULT_KEYS.has(key));
  if (unknown.length > 0) return { ok: false, reason: `Malformed Lambda proxy response: unknown keys ${unknown.join(', ')}` };
  const { statusCode, headers, multiValueHeaders, body, isBase64Encoded } = value;
  if (typeof statusCode !== 'number' || !Number.isInteger(statusCode) || statusCode < 100 || statusCode > 599)
    return { ok: false, reason: 'Malformed Lambda proxy response: statusCode' };
  if (headers != null && !(isPlainObject(headers) && Object.values(headers).every(isHeaderValue)))
    return { ok: false, reason: 'Malformed Lambda proxy response: headers' };
  if (
    multiValueHeaders != null &&
    !(
      isPlainObject(multiValueHeaders) &&
      Object.values(multiValueHeaders).every((values) => Array.isArray(values) && values.every(isHeaderValue))
    )
  )
    return { ok: false, reason: 'Malformed Lambda proxy response: multiValueHeaders' };
  if (body != null && typeof body !== 'string') return { ok: false, reason: 'Malformed Lambda proxy response: body' };
  if (isBase64Encoded != null && typeof isBase64Encoded !== 'boolean')
    return { ok: false, reason: 'Malformed Lambda proxy response: isBase64Encoded' };

  const merged = new Map<string, { name: string; values: string[] }>();
  const add = (name: string, value: unknown) => {
    const entry = merged.get(name.toLowerCase()) ?? { name, values: [] };
    if (!entry.values.includes(String(value))) entry.values.push(String(value));
    merged.set(name.toLowerCase(), entry);
  };
  for (const [name, values] of Object.entries((multiValueHeaders ?? {}) as Record<string, unknown[]>))
    for (const one of values) add(name, one);
  for (const [name, one] of Object.entries((headers ?? {}) as Record<string, unknown>)) add(name, one);
  return {
    ok: true,
    statusCode,
    headers: Object.fromEntries([...merged.values()].map(({ name, values }) => [name, values])),
    body: (body as string | null | undefined) ?? '',
    isBase64Encoded: isBase64Encoded === true,
  };
}

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
  /**
   * The API's domain (`host:port` of the twin's gateway): the edge's `Host` and `requestContext.domainName`.
   * Absent, the caller's Host header is kept.
   */
  domain?: string;
  /** The scheme the caller used (the twin's gateway speaks http). */
  protocol?: 'http' | 'https';
}

/** The headers an edge-optimized API's CloudFront distribution and API Gateway set; the caller's own values are replaced. */
const EDGE_HEADERS = [
  'host',
  'via',
  'x-amz-cf-id',
  'x-amzn-trace-id',
  'x-forwarded-for',
  'x-forwarded-port',
  'x-forwarded-proto',
  'cloudfront-forwarded-proto',
  'cloudfront-is-desktop-viewer',
  'cloudfront-is-mobile-viewer',
  'cloudfront-is-smarttv-viewer',
  'cloudfront-is-tablet-viewer',
  'cloudfront-viewer-country',
];

/**
 * The request's headers as the integration receives them: the caller's, then what the edge adds. CloudFront
 * appends the caller's address to any X-Forwarded-For it was sent; the twin has no viewer country or device
 * detection, so every caller is a desktop in the US.
 */
function edgeHeaders(
  rawHeaders: readonly string[],
  sourceIp: string,
  domain: string | undefined,
  protocol: string,
): { headers: string[]; domain: string } {
  const kept: string[] = [];
  const forwardedFor: string[] = [];
  let host: string | undefined;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    if (name === 'x-forwarded-for') forwardedFor.push(rawHeaders[i + 1]!);
    if (name === 'host') host = rawHeaders[i + 1];
    if (!EDGE_HEADERS.includes(name)) kept.push(rawHeaders[i]!, rawHeaders[i + 1]!);
  }
  const apiDomain = domain ?? host ?? 'localhost';
  const port = /:(\d+)$/.exec(apiDomain)?.[1] ?? (protocol === 'https' ? '443' : '80');
  const distribution = randomBytes(8).toString('hex');
  const headers = [
    ...kept,
    'Host',
    apiDomain,
    'Via',
    `1.1 ${distribution}.cloudfront.net (CloudFront)`,
    'X-Amz-Cf-Id',
    randomBytes(42).toString('base64url'),
    'X-Amzn-Trace-Id',
    `Root=1-${Math.floor(Date.now() / 1000).toString(16)}-${randomBytes(12).toString('hex')}`,
    'X-Forwarded-For',
    [...forwardedFor, sourceIp].join(', '),
    'X-Forwarded-Port',
    port,
    'X-Forwarded-Proto',
    protocol,
    'CloudFront-Forwarded-Proto',
    protocol,
    'CloudFront-Is-Desktop-Viewer',
    'true',
    'CloudFront-Is-Mobile-Viewer',
    'false',
    'CloudFront-Is-SmartTV-Viewer',
    'false',
    'CloudFront-Is-Tablet-Viewer',
    'false',
    'CloudFront-Viewer-Country',
    'US',
  ];
  return { headers, domain: apiDomain };
}

/** The query's parameters as API Gateway hands them over: every value of a name, and its last one. */
function queryParameters(url: URL) {
  // Prototype-free maps: a parameter called `__proto__` or `valueOf` is just a name.
  const multiValueQueryStringParameters: Record<string, string[]> = Object.create(null);
  // API Gateway splits the query string on `;` as well as `&`.
  for (const [name, value] of new URLSearchParams(url.search.slice(1).replace(/;/g, '&')))
    (multiValueQueryStringParameters[name] ??= []).push(value);
  const queryStringParameters: Record<string, string> = Object.create(null);
  for (const [name, values] of Object.entries(multiValueQueryStringParameters)) queryStringParameters[name] = values[values.length - 1]!;
  return { queryStringParameters, multiValueQueryStringParameters };
}

/**
 * The events API Gateway builds for one request: the REQUEST authorizer's, and the proxy
 * integration's once the authorizer has answered. Both share the request's fields, built once.
 */
export function gatewayEvents({
  route,
  method,
  url,
  rawHeaders: callerHeaders,
  pathParameters,
  sourceIp,
  requestId,
  domain,
  protocol = 'http',
}: GatewayRequest): {
  authorizer: APIGatewayRequestAuthorizerEvent;
  proxy(body: string | null, authorization: APIGatewayAuthorizerResult | null, integrationLatency?: number): APIGatewayProxyEvent;
} {
  // Prototype-free maps: a header or parameter called `__proto__` or `valueOf` is just a name.
  const headers: Record<string, string> = Object.create(null);
  const multiValueHeaders: Record<string, string[]> = Object.create(null);
  const edge = edgeHeaders(callerHeaders, sourceIp, domain, protocol);
  const rawHeaders = edge.headers;
  const domainName = edge.domain;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    const value = rawHeaders[i + 1]!;
    headers[name] = value;
    (multiValueHeaders[name] ??= []).push(value);
  }
  const { queryStringParameters, multiValueQueryStringParameters } = queryParameters(url);
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
          // The path as the caller asked for it: the twin's addresses carry no stage (as a custom domain's).
          path: url.pathname,
          protocol: 'HTTP/1.1',
          domainName,
          domainPrefix: domainName.split(/[.:]/)[0]!,
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
  const gateway = new TwinGateway(options);
  const host = options.host ?? '127.0.0.1';
  const server = await listen(gateway.handle, options.port, host, (error, res) => {
    console.error(JSON.stringify({ level: 'ERROR', message: 'Gateway failed', error: String(error) }));
    send(res, 500, envelope(500, DETAILS.unexpected));
  });
  if (host !== '0.0.0.0' && host !== '::') gateway.domain = new URL(server.url).host;
  return { ...server, idle: () => gateway.idle() };
}

/** One request as the gateway reads it before dispatching. */
interface Request {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  url: URL;
  requestId: string;
}

type Outcome = { kind: 'result'; value: unknown } | { kind: 'error'; error: unknown } | { kind: 'timeout' };

/** The twin's API Gateway: one instance per listening server, its handler modules loaded once each. */
class TwinGateway {
  /** The API's domain, `host:port`, once listening; on a wildcard address the caller's Host stands for it. */
  domain: string | undefined;
  private readonly limiter: RateLimiter | null;
  private readonly timeScale: number;
  private readonly modules = new Map<string, Promise<{ handler: unknown }>>();
  /** Every handler invocation not settled yet, those the gateway gave up on at their timeout included. */
  private readonly running = new Set<Promise<unknown>>();

  constructor(private readonly options: GatewayOptions) {
    this.limiter = options.limiter === undefined ? new RateLimiter() : options.limiter;
    this.timeScale = options.timeScale ?? 1;
  }

  /** Settles once every invocation has (those answered at their timeout go on running, as the twin cannot stop them). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  private load(file: string) {
    let module = this.modules.get(file);
    if (!module) {
      module = import(join(this.options.root, file)) as Promise<{ handler: unknown }>;
      this.modules.set(file, module);
    }
    return module;
  }

  readonly handle = async (req: IncomingMessage, res: ServerResponse) => {
    const request: Request = {
      req,
      res,
      requestId: randomUUID(),
      url: new URL(req.url ?? '/', 'http://localhost'),
      method: (req.method ?? 'GET').toUpperCase(),
    };
    const { url } = request;
    // `/docs/` is `/docs`, as the API's own paths ignore a trailing slash; `/` stays itself.
    const controlPath = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') || '/' : url.pathname;
    const control = this.options.control?.[`${request.method} ${controlPath}`];
    if (control) return this.answerControl(control, req, res);
    // API Gateway refuses a query string with a raw `|`, `{` or `}` before it looks at anything else.
    const rawQuery = (req.url ?? '').includes('?') ? (req.url ?? '').slice((req.url ?? '').indexOf('?') + 1) : '';
    if (REFUSED_QUERY_CHARACTERS.test(rawQuery)) return sendGatewayResponse(res, 400, DETAILS.requestUnprocessable);
    const path = url.pathname.replace(/\/+$/, '');
    const webhook = this.options.webhooks?.find((candidate) => candidate.path === path);
    if (webhook) return this.dispatchWebhook(webhook, request);
    const page = this.options.pages?.find((candidate) => candidate.path === path);
    if (page) return this.dispatchPage(page, request);
    const shopperMatches = matchPath((this.options.shopperRoutes ?? []) as unknown as Route[], url.pathname);
    if (shopperMatches.length > 0) return this.dispatchShopper(shopperMatches, request);
    const staffMatches = matchPath((this.options.staffRoutes ?? []) as unknown as Route[], url.pathname);
    if (staffMatches.length > 0) return this.dispatchStaff(staffMatches, request);
    return this.dispatchApi(request);
  };

  /** A control endpoint of the twin's own: the raw body in, its answer (JSON, raw, or with headers) out. */
  private async answerControl(control: (body: string | null) => Promise<unknown>, req: IncomingMessage, res: ServerResponse) {
    let body: string | null;
    try {
      body = (await readBody(req)) || null;
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
    if (answer instanceof WithHeaders) return send(res, 200, answer.body, answer.headers);
    if (!(answer instanceof RawBody)) return send(res, 200, answer);
    res.writeHead(200, { 'Content-Type': answer.contentType });
    return res.end(answer.body);
  }

  /** A /v1 route: the authorizer (or its cached answer), the usage plan, the throttles, then the route's function. */
  private async dispatchApi(request: Request) {
    const { req, res, method, url, requestId } = request;
    const matches = matchPath(this.options.routes, url.pathname);
    if (matches.length === 0) {
      return send(res, 404, envelope(404, `No route matches ${method} ${echoed(url.pathname)}`));
    }
    const match = matches.find((candidate) => candidate.route.method === method);
    if (!match) {
      if (!mockAccepts(req)) return sendGatewayResponse(res, 415, DETAILS.unsupportedMediaType);
      const allowed = matches.map((candidate) => candidate.route.method).join(', ');
      return send(res, 405, envelope(405, `Method ${method} is not allowed on this path. Allowed: ${allowed}`), { Allow: allowed });
    }
    const body = await this.bodyOf(request);
    if (body === TOO_LARGE) return;
    const { route } = match;
    const events = this.eventsOf(request, route, match.pathParameters);

    let authorization: APIGatewayAuthorizerResult;
    let latency: number;
    try {
      ({ answer: authorization, latency } = await this.authorize(events.authorizer));
    } catch (error) {
      if ((error as Error)?.message === 'Unauthorized') return send(res, 401, envelope(401, DETAILS.missingAuthorization));
      // AUTHORIZER_FAILURE, or AUTHORIZER_CONFIGURATION_ERROR for an answer API Gateway cannot use: both a 500.
      const message = error instanceof AuthorizerConfigurationError ? 'Authorizer answer unusable' : 'Authorizer failed';
      console.error(JSON.stringify({ level: 'ERROR', message, requestId, error: String(error) }));
      return send(res, 500, envelope(500, DETAILS.unexpected));
    }
    const refusal = this.refusalOf(authorization, events.authorizer.methodArn, route, method);
    if (refusal) return send(res, refusal.status, envelope(refusal.status, refusal.detail));
    return this.invoke(route, events.proxy(body, authorization, latency), res, requestId);
  }

  /**
   * What API Gateway refuses an authorized request for, or null: the policy against this request's method ARN (a
   * cached answer's too), the usage plan, the plan's throttle per key and a strict route's method throttle on top.
   */
  private refusalOf(authorization: APIGatewayAuthorizerResult, methodArn: string, route: Route, method: string) {
    // A refusal is ACCESS_DENIED, which the stack's gateway response answers 401 with `$context.authorizer.detail`:
    // the Deny's detail, empty when the answer has none (an Allow whose resources do not cover this method).
    if (!policyAllows(authorization, methodArn)) {
      const detail = authorization.context?.detail;
      return { status: 401, detail: detail === undefined || detail === null ? '' : String(detail) };
    }
    // The usage plan takes only a key of its own, enabled: the authorizer names it (API key source AUTHORIZER).
    // INVALID_API_KEY, which the stack's gateway response answers 401 with the invalid key's detail.
    const usage = this.options.usagePlan;
    if (usage && !usage.admits(authorization.usageIdentifierKey)) return { status: 401, detail: DETAILS.invalidKey };
    const caller = usage ? `key ${authorization.usageIdentifierKey}` : `principal ${authorization.principalId}`;
    const limiter = this.limiter;
    const throttled =
      limiter &&
      (!limiter.take(caller, THROTTLE_LIMITS.standard) ||
        (route.throttle === 'strict' && !limiter.take(`${caller} ${method} ${route.path}`, THROTTLE_LIMITS.strict)));
    return throttled ? { status: 429, detail: DETAILS.rateLimited } : null;
  }

  /** One run of the authorizer function: its answer, checked as API Gateway checks it, and how long it took. */
  private async runAuthorizer(event: APIGatewayRequestAuthorizerEvent) {
    const started = performance.now();
    const handler = (await this.load(this.options.authorizer ?? AUTHORIZER.handler)).handler as AuthorizerHandler;
    const answer = checkAuthorizerAnswer(await handler(event));
    return { answer, latency: Math.round(performance.now() - started) };
  }

  /**
   * The authorizer's answer, from the cache when it holds one (latency 0: no function ran); an unusable answer is
   * never cached. With an identity source, API Gateway refuses a missing or empty header itself (the UNAUTHORIZED
   * gateway response), without the authorizer.
   */
  private async authorize(event: APIGatewayRequestAuthorizerEvent): Promise<{ answer: APIGatewayAuthorizerResult; latency: number }> {
    const cache = this.options.authorizerCache;
    if (!cache || cache.ttlSeconds === 0) return this.runAuthorizer(event);
    const identity = headerValue(event.headers, 'authorization');
    if (identity === undefined || identity.trim() === '') throw new Error('Unauthorized');
    const cached = cache.get(identity);
    if (cached) return { answer: cached, latency: 0 };
    const generation = cache.generation;
    const run = await this.runAuthorizer(event);
    cache.set(identity, run.answer, generation);
    return run;
  }

  /**
   * Runs the route's handler with the proxy event and writes its result, as the Lambda proxy integration does:
   * an event over Lambda's 6 MB is refused (500); a function that throws, answers a malformed or oversized result
   * or runs past its timeout fails (502); one still running at the REST API's 29 s is given up on (504). Lambda
   * would stop a timed-out function; the twin cannot stop a promise, so the handler runs on unanswered.
   */
  private async invoke(
    route: { name: string; handler: string; timeoutSeconds?: number },
    event: APIGatewayProxyEvent,
    res: ServerResponse,
    requestId: string,
    headers: Record<string, string> = {},
  ) {
    const fail = (status: number, detail: string, message: string, error?: unknown) => {
      console.error(JSON.stringify({ level: 'ERROR', message, route: route.name, requestId, ...(error ? { error: String(error) } : {}) }));
      sendGatewayResponse(res, status, detail, headers);
    };
    if (Buffer.byteLength(JSON.stringify(event)) > LAMBDA_PAYLOAD_BYTES) {
      return fail(500, DETAILS.unexpected, 'Lambda refused the invocation: the event exceeds its 6 MB payload limit');
    }
    const timeoutSeconds = route.timeoutSeconds ?? ROUTE_TIMEOUT_SECONDS;
    const functionMs = timeoutSeconds * 1000 * this.timeScale;
    const integrationMs = INTEGRATION_TIMEOUT_SECONDS * 1000 * this.timeScale;
    const outcome = await this.run(route, event, requestId, {
      contextSeconds: timeoutSeconds * this.timeScale,
      waitMs: Math.min(functionMs, integrationMs),
    });
    if (outcome.kind === 'timeout') {
      if (functionMs < integrationMs) return fail(502, DETAILS.unexpected, `Task timed out after ${timeoutSeconds} seconds`);
      return fail(504, DETAILS.integrationTimeout, `Endpoint request timed out after ${INTEGRATION_TIMEOUT_SECONDS} seconds`);
    }
    if (outcome.kind === 'error') return fail(502, DETAILS.unexpected, 'Handler failed', outcome.error);
    const answer = proxyAnswer(outcome.value);
    if (!answer.ok) return fail(502, DETAILS.unexpected, answer.reason);
    const accept = (headerValue(event.headers, 'accept') ?? '').split(',')[0]!.split(';')[0]!.trim();
    const binary = answer.isBase64Encoded && (this.options.binaryMediaTypes ?? []).some((range) => mediaTypeMatches(range, accept));
    res.writeHead(answer.statusCode, { ...answer.headers, 'x-amzn-RequestId': requestId });
    res.end(binary ? Buffer.from(answer.body, 'base64') : answer.body);
  }

  /**
   * The handler's outcome, or a timeout after `waitMs`; its context counts down `contextSeconds`. The call is kept
   * in `running` until it settles.
   */
  private async run(
    route: { name: string; handler: string },
    event: APIGatewayProxyEvent,
    requestId: string,
    { contextSeconds, waitMs }: { contextSeconds: number; waitMs: number },
  ) {
    const handler = (await this.load(route.handler)).handler as ProxyHandler;
    let timer: NodeJS.Timeout | undefined;
    const call = (async () => handler(event, lambdaContext(route.name, requestId, contextSeconds)))().then(
      (value): Outcome => ({ kind: 'result', value }),
      (error: unknown): Outcome => ({ kind: 'error', error }),
    );
    // Kept until it settles, past its timeout too: the twin cannot stop it as Lambda would (idle()).
    this.running.add(call);
    void call.finally(() => this.running.delete(call));
    const outcome = await Promise.race<Outcome>([
      call,
      new Promise<Outcome>((resolve) => {
        timer = setTimeout(() => resolve({ kind: 'timeout' }), waitMs);
        timer.unref();
      }),
    ]);
    clearTimeout(timer);
    return outcome;
  }

  /** The events of one request to `route`, with the API's domain. */
  private eventsOf({ req, method, url, requestId }: Request, route: Route, pathParameters: Record<string, string>) {
    return gatewayEvents({
      route,
      method,
      url,
      rawHeaders: req.rawHeaders,
      pathParameters,
      sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
      requestId,
      ...(this.domain ? { domain: this.domain } : {}),
    });
  }

  /** The request's body, or TOO_LARGE once the gateway's 413 has been answered (with `headers`). */
  private async bodyOf({ req, res }: Request, headers: Record<string, string> = {}): Promise<string | null | typeof TOO_LARGE> {
    try {
      return await bodyOrNull(req);
    } catch (error) {
      if (!(error instanceof BodyTooLarge)) throw error;
      sendGatewayResponse(res, 413, DETAILS.requestTooLarge, headers);
      return TOO_LARGE;
    }
  }

  /** The 405 of a method the path does not take (API Gateway's mock), or its 415 for a body type the mock refuses. */
  private methodNotAllowed({ req, res, method }: Request, allowed: string, headers: Record<string, string> = {}) {
    if (!mockAccepts(req)) return sendGatewayResponse(res, 415, DETAILS.unsupportedMediaType);
    return send(res, 405, envelope(405, `Method ${method} is not allowed on this path. Allowed: ${allowed}`), {
      Allow: allowed,
      ...headers,
    });
  }

  // API Gateway's plain proxy integration: no authorizer, no usage plan, but the stage's own throttle of the
  // webhook's method, all callers together (WEBHOOK_THROTTLE, the stack's methodOptions). A body over API
  // Gateway's 10 MB is refused with 413, one over Lambda's 6 MB with 500; the receiver refuses anything over its
  // own 1 MiB (401, it cannot be a platform delivery).
  private async dispatchWebhook(route: WebhookRoute, request: Request) {
    const { res, method } = request;
    if (method !== route.method) return this.methodNotAllowed(request, route.method);
    // The stage throttles before anything is read, as API Gateway does; the body is never looked at.
    if (this.limiter && !this.limiter.take(`stage ${route.method} ${route.path}`, WEBHOOK_THROTTLE))
      return send(res, 429, envelope(429, DETAILS.rateLimited));
    const body = await this.bodyOf(request);
    if (body === TOO_LARGE) return;
    const events = this.eventsOf(request, { ...route, scope: 'full', throttle: 'standard' }, {});
    return this.invoke(route, events.proxy(body, null), res, request.requestId);
  }

  // As the stack's page methods: no authorizer, no API key, the stage's method throttle; the handler answers
  // the page or the bounce that obtains an ID token.
  private async dispatchPage(route: PageRoute, request: Request) {
    const { req, res, method, url, requestId } = request;
    // The preflight of a staff-only route a UI extension calls across origins (the POS extension's): the mock's 204.
    if (method === 'OPTIONS' && CROSS_ORIGIN_STAFF_PATHS.includes(route.path)) {
      if (!mockAccepts(req)) return sendGatewayResponse(res, 415, DETAILS.unsupportedMediaType);
      res.writeHead(204, { ...STAFF_PREFLIGHT_HEADERS, 'x-amzn-RequestId': requestId });
      return res.end();
    }
    // A staff-only route under /admin/api (the overview, the member list): the stack puts no 405 mock there.
    if (method !== route.method && isStaffResource(route.path))
      return send(res, 404, envelope(404, `No route matches ${method} ${echoed(url.pathname)}`), { ...STAFF_CORS_HEADERS });
    if (method !== route.method) return this.methodNotAllowed(request, route.method);
    if (this.limiter && !this.limiter.take(`page ${route.method} ${route.path}`, route.throttle))
      return send(res, 429, envelope(429, DETAILS.rateLimited));
    const events = this.eventsOf(request, { ...route, scope: 'read', throttle: 'standard' }, {});
    return this.invoke(route, events.proxy(null, null), res, request.requestId);
  }

  // As the stack's shopper methods: no authorizer, no API key; the stage's method throttle for each one; the
  // preflight a mock answer. Every answer of the gateway's own carries the CORS headers too.
  private async dispatchShopper(matches: Match[], request: Request) {
    const { req, res, method, requestId } = request;
    if (method === 'OPTIONS') {
      if (!mockAccepts(req)) return sendGatewayResponse(res, 415, DETAILS.unsupportedMediaType);
      res.writeHead(204, { ...SHOPPER_CORS_HEADERS, 'x-amzn-RequestId': requestId });
      return res.end();
    }
    const match = matches.find((candidate) => candidate.route.method === method);
    if (!match) {
      const allowed = [...matches.map((candidate) => candidate.route.method), 'OPTIONS'].join(', ');
      return this.methodNotAllowed(request, allowed, { ...SHOPPER_CORS_HEADERS });
    }
    const route = match.route as unknown as ShopperRoute;
    const body = await this.bodyOf(request, { ...SHOPPER_CORS_HEADERS });
    if (body === TOO_LARGE) return;
    if (this.limiter && !this.limiter.take(`shopper ${method} ${route.path}`, route.throttle)) {
      return send(res, 429, envelope(429, DETAILS.rateLimited), { ...SHOPPER_CORS_HEADERS });
    }
    const scope = route.method === 'GET' ? 'read' : 'full';
    const events = this.eventsOf(request, { ...route, scope, throttle: 'standard' }, match.pathParameters);
    return this.invoke(route, events.proxy(body, null), res, requestId);
  }

  // As the stack's staff methods: the /v1 route's own function, on a resource of its own without the authorizer
  // or an API key; the stage's method throttle for each one. The function verifies the ID token first. The
  // preflight of a path the admin's extensions call is a mock answer; the gateway's own answers carry CORS too.
  private async dispatchStaff(matches: Match[], request: Request) {
    const { req, res, method, url, requestId } = request;
    if (method === 'OPTIONS' && matches.some((candidate) => CROSS_ORIGIN_STAFF_PATHS.includes(candidate.route.path))) {
      if (!mockAccepts(req)) return sendGatewayResponse(res, 415, DETAILS.unsupportedMediaType);
      res.writeHead(204, { ...STAFF_PREFLIGHT_HEADERS, 'x-amzn-RequestId': requestId });
      return res.end();
    }
    const match = matches.find((candidate) => candidate.route.method === method);
    // As the stack, which has no 405 mock on the staff paths: API Gateway's own 404.
    if (!match) return send(res, 404, envelope(404, `No route matches ${method} ${echoed(url.pathname)}`), { ...STAFF_CORS_HEADERS });
    const staff = match.route as unknown as StaffRoute;
    const body = await this.bodyOf(request, { ...STAFF_CORS_HEADERS });
    if (body === TOO_LARGE) return;
    if (this.limiter && !this.limiter.take(`staff ${method} ${staff.path}`, staff.throttle)) {
      return send(res, 429, envelope(429, DETAILS.rateLimited), { ...STAFF_CORS_HEADERS });
    }
    const events = this.eventsOf(request, { ...staff.route, path: staff.path }, match.pathParameters);
    return this.invoke(staff.route, events.proxy(body, null), res, requestId);
  }
}

/** What `bodyOf` answers once it has answered the 413 itself. */
const TOO_LARGE = Symbol('too large');

/**
 * The request's body, or null without one: API Gateway hands a bodiless request over with `body: null`.
 * BodyTooLarge past API Gateway's 10 MB.
 */
async function bodyOrNull(req: IncomingMessage): Promise<string | null> {
  return (await readBody(req, API_PAYLOAD_BYTES)) || null;
}
