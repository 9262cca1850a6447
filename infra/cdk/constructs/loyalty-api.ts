// The REST API generated from the route manifest: REQUEST authorizer cached per Authorization value, API keys taken
// from the authorizer, a usage plan with per-method throttles, and every gateway response rewritten
// into the spec's error envelope. Webhooks and the shopper routes are methods without authorizer or key (the
// handler checks the platform's signature, the app proxy's or the customer session token), throttled per
// stage method instead; so are the staff routes, each /v1 route's /admin/api twin served by the route's own
// function, which verifies the admin ID token; `OPTIONS` on a shopper path answers the CORS preflight; a default
// throttle bounds the whole stage.
import {
  AccessLogFormat,
  ApiKeySourceType,
  AuthorizationType,
  AwsIntegration,
  IdentitySource,
  type IResource,
  LogGroupLogDestination,
  type Method,
  MethodLoggingLevel,
  MockIntegration,
  PassthroughBehavior,
  RequestAuthorizer,
  ResponseType,
  RestApi,
  type UsagePlan,
} from 'aws-cdk-lib/aws-apigateway';
import { CfnAuthorizer } from 'aws-cdk-lib/aws-apigateway';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { DETAILS, envelope } from '../../../shared/http/errors';
import {
  type PageRoute,
  isStaffResource,
  type Route,
  CROSS_ORIGIN_STAFF_PATHS,
  SHOPPER_CORS_HEADERS,
  STAFF_PREFLIGHT_HEADERS,
  type ShopperRoute,
  type StaffRoute,
  THROTTLE_LIMITS,
  WEBHOOK_THROTTLE,
  type WebhookRoute,
} from '../../../shared/runtime/entry-points';

export interface LoyaltyApiProps {
  routes: readonly Route[];
  webhooks: readonly WebhookRoute[];
  /** The shopper routes (SURFACES-CONTRACT.md): outside the authorizer and the usage plan, like the webhooks. */
  shopperRoutes?: readonly ShopperRoute[];
  /**
   * The staff routes (SURFACES-CONTRACT.md): each /v1 route's /admin/api twin, integrated with the route's own
   * function, outside the authorizer and the usage plan.
   */
  staffRoutes?: readonly StaffRoute[];
  /** Pages for a browser (the app's home, SURFACES-CONTRACT.md): outside the authorizer and the usage plan too. */
  pages?: readonly PageRoute[];
  /** One function per route, webhook, shopper route and page, by name. */
  handlers: ReadonlyMap<string, IFunction>;
  authorizer: IFunction;
  logRetention: RetentionDays;
  /** Default throttle of every method of the stage, all callers together (stageThrottle()). */
  stageThrottle: { rateLimit: number; burstLimit: number };
  /** Authorizer result cache per Authorization value (default 300 s); 0 turns it off. */
  authorizerCacheTtl?: Duration;
}

/** How many keys may run at the usage plan's standard rate at once before the stage as a whole throttles. */
export const DEFAULT_FULL_RATE_KEYS = 10;

/**
 * The stage's default method throttle, sized from the usage plan: `fullRateKeys` keys at the standard
 * per-key rate and burst. It counts every request, with a key or without, so it is the bound on what
 * callers without a key (whom no usage plan counts) can make the authorizer and DynamoDB do.
 */
export function stageThrottle(fullRateKeys: number): { rateLimit: number; burstLimit: number } {
  if (!Number.isInteger(fullRateKeys) || fullRateKeys < 1)
    throw new Error(`fullRateKeys must be a whole number above 0, got '${fullRateKeys}'`);
  return {
    rateLimit: THROTTLE_LIMITS.standard.rateLimit * fullRateKeys,
    burstLimit: THROTTLE_LIMITS.standard.burstLimit * fullRateKeys,
  };
}

/** The operation name of a staff method: its route's, marked (`getCustomer` → `getCustomerStaff`). */
export const staffOperationName = (staff: StaffRoute): string => `${staff.route.name}Staff`;

/** API Gateway's own default and ours; every key write flushes the cache (authorizer-cache-flusher.ts). */
export const DEFAULT_AUTHORIZER_CACHE_TTL = Duration.seconds(300);

/** The shopper paths' mock: the CORS preflight (OPTIONS) is a 204, any other method not routed there a 405. */
export const PREFLIGHT_OR_NOT_ALLOWED = '#if($context.httpMethod == "OPTIONS"){"statusCode": 204}#else{"statusCode": 405}#end';

const json = (body: unknown) => ({ 'application/json': JSON.stringify(body) });

/** Every answer API Gateway gives on its own, in the spec's envelope and with the spec's details. */
export const GATEWAY_RESPONSES: ReadonlyArray<{ id: string; type: ResponseType; statusCode: string; detail: string }> = [
  { id: 'MissingKey', type: ResponseType.UNAUTHORIZED, statusCode: '401', detail: DETAILS.missingAuthorization },
  // The authorizer's Deny carries its detail (DETAILS.invalidKey, or DETAILS.bearerPrefix for `Bearer <key>`)
  // in its context; a gateway response template substitutes $context variables (no VTL logic).
  { id: 'InvalidKey', type: ResponseType.ACCESS_DENIED, statusCode: '401', detail: '$context.authorizer.detail' },
  // A loyalty key whose usage-plan key is missing or disabled: for the caller, an invalid key.
  { id: 'InvalidUsageKey', type: ResponseType.INVALID_API_KEY, statusCode: '401', detail: DETAILS.invalidKey },
  { id: 'Throttled', type: ResponseType.THROTTLED, statusCode: '429', detail: DETAILS.rateLimited },
  { id: 'QuotaExceeded', type: ResponseType.QUOTA_EXCEEDED, statusCode: '429', detail: DETAILS.rateLimited },
  // API Gateway answers an unknown path with 403 "Missing Authentication Token"; it is a 404.
  { id: 'UnknownRoute', type: ResponseType.MISSING_AUTHENTICATION_TOKEN, statusCode: '404', detail: 'No route matches this request' },
  { id: 'TooLarge', type: ResponseType.REQUEST_TOO_LARGE, statusCode: '413', detail: DETAILS.requestTooLarge },
  // A 405 or preflight mock has a template for application/json only: another Content-Type is refused with 415,
  // which DEFAULT_4XX below would recode to 400.
  { id: 'UnsupportedMediaType', type: ResponseType.UNSUPPORTED_MEDIA_TYPE, statusCode: '415', detail: DETAILS.unsupportedMediaType },
  { id: 'AuthorizerFailed', type: ResponseType.AUTHORIZER_FAILURE, statusCode: '500', detail: DETAILS.unexpected },
  // Lambda refused the invocation (an event over its 6 MB, throttled): API Gateway's 500.
  { id: 'IntegrationFailed', type: ResponseType.INTEGRATION_FAILURE, statusCode: '500', detail: DETAILS.unexpected },
  // The function still running at the REST API's 29 s.
  { id: 'IntegrationTimeout', type: ResponseType.INTEGRATION_TIMEOUT, statusCode: '504', detail: DETAILS.integrationTimeout },
  { id: 'Default4xx', type: ResponseType.DEFAULT_4XX, statusCode: '400', detail: DETAILS.requestUnprocessable },
  // The function failed (threw, timed out, answered a malformed or oversized result): API Gateway's 502, which
  // has no response type of its own. A status here recodes every 5XX without a response above, so it is 502.
  { id: 'Default5xx', type: ResponseType.DEFAULT_5XX, statusCode: '502', detail: DETAILS.unexpected },
];

/** The stage every method is deployed to; the functions' invoke permissions name it. */
export const STAGE_NAME = 'prod';

/**
 * A method's Lambda proxy integration, without the per-method invoke permissions LambdaIntegration would add to
 * the method's stack: each function has one permission for this API's stage, in its own nested stack, so a method
 * costs the main stack one resource (docs/decisions.md, "Nested stacks"). The same integration as
 * LambdaIntegration's (`AWS_PROXY`, POST to the function's invocations).
 */
const integrate = (handler: IFunction) =>
  new AwsIntegration({ proxy: true, service: 'lambda', path: `2015-03-31/functions/${handler.functionArn}/invocations` });

export class LoyaltyApi extends Construct {
  readonly api: RestApi;
  readonly usagePlan: UsagePlan;
  readonly accessLogs: LogGroup;
  readonly methods = new Map<string, Method>();

  constructor(scope: Construct, id: string, props: LoyaltyApiProps) {
    super(scope, id);
    this.accessLogs = new LogGroup(this, 'AccessLogs', { retention: props.logRetention, removalPolicy: RemovalPolicy.DESTROY });
    this.api = new RestApi(this, 'Api', {
      description: 'Loyalty program API',
      apiKeySourceType: ApiKeySourceType.AUTHORIZER,
      cloudWatchRole: true,
      deployOptions: {
        stageName: STAGE_NAME,
        tracingEnabled: true,
        metricsEnabled: true,
        loggingLevel: MethodLoggingLevel.ERROR,
        accessLogDestination: new LogGroupLogDestination(this.accessLogs),
        // Every method, every caller together; the webhooks' own limits below override it for them.
        throttlingRateLimit: props.stageThrottle.rateLimit,
        throttlingBurstLimit: props.stageThrottle.burstLimit,
        // Webhooks have no API key, so no usage plan counts them: the stage bounds each one as a whole.
        // So have the shopper routes: each method its own throttle, all shops and shoppers together.
        methodOptions: Object.fromEntries([
          ...props.webhooks.map((hook) => [
            `${hook.path}/${hook.method}`,
            { throttlingRateLimit: WEBHOOK_THROTTLE.rateLimit, throttlingBurstLimit: WEBHOOK_THROTTLE.burstLimit },
          ]),
          ...[...(props.shopperRoutes ?? []), ...(props.staffRoutes ?? []), ...(props.pages ?? [])].map((route) => [
            `${route.path}/${route.method}`,
            { throttlingRateLimit: route.throttle.rateLimit, throttlingBurstLimit: route.throttle.burstLimit },
          ]),
        ]),
        // Never the Authorization header: the key id and the caller's shop are enough to trace a request.
        accessLogFormat: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            method: '$context.httpMethod',
            resource: '$context.resourcePath',
            status: '$context.status',
            latencyMs: '$context.responseLatency',
            shop: '$context.authorizer.shopId',
            keyId: '$context.authorizer.keyId',
            error: '$context.error.responseType',
          }),
        ),
      },
    });

    const cacheTtl = props.authorizerCacheTtl ?? DEFAULT_AUTHORIZER_CACHE_TTL;
    const cached = cacheTtl.toSeconds() > 0;
    // Cached: one answer per Authorization value, reused for every method until the TTL or a flush; API
    // Gateway then refuses a missing header itself, with the UNAUTHORIZED gateway response below.
    // Uncached: no identity source, so a missing header still reaches the authorizer. The identity source is
    // the header's last value: a request sending it twice is refused by every endpoint's chain as well as by
    // the authorizer, so an Allow cached for that last value cannot let it through (docs/api-behaviour.md).
    const authorizer = new RequestAuthorizer(this, 'KeyAuthorizer', {
      handler: props.authorizer,
      identitySources: cached ? [IdentitySource.header('Authorization')] : [],
      resultsCacheTtl: cacheTtl,
    });
    if (!cached) (authorizer.node.defaultChild as CfnAuthorizer).addPropertyDeletionOverride('IdentitySource');

    const resources = new Map<string, IResource>();
    for (const route of props.routes) {
      const handler = props.handlers.get(route.name);
      if (!handler) throw new Error(`No function for route ${route.name}`);
      const resource = this.api.root.resourceForPath(route.path);
      resources.set(route.path, resource);
      const method = resource.addMethod(route.method, integrate(handler), {
        authorizer,
        authorizationType: AuthorizationType.CUSTOM,
        apiKeyRequired: true,
        operationName: route.name,
      });
      this.methods.set(route.name, method);
    }

    for (const hook of props.webhooks) {
      const handler = props.handlers.get(hook.name);
      if (!handler) throw new Error(`No function for webhook ${hook.name}`);
      const resource = this.api.root.resourceForPath(hook.path);
      resources.set(hook.path, resource);
      // No authorizer and no API key: the platform cannot send one. The handler verifies the HMAC.
      const method = resource.addMethod(hook.method, integrate(handler), {
        authorizationType: AuthorizationType.NONE,
        apiKeyRequired: false,
        operationName: hook.name,
      });
      this.methods.set(hook.name, method);
    }

    const shopperPaths = new Set<string>();
    for (const route of props.shopperRoutes ?? []) {
      const handler = props.handlers.get(route.name);
      if (!handler) throw new Error(`No function for shopper route ${route.name}`);
      const resource = this.api.root.resourceForPath(route.path);
      resources.set(route.path, resource);
      shopperPaths.add(route.path);
      // No authorizer and no API key: a shopper holds none. The handler verifies the app proxy's signature
      // or the customer session token before it reads anything else.
      const method = resource.addMethod(route.method, integrate(handler), {
        authorizationType: AuthorizationType.NONE,
        apiKeyRequired: false,
        operationName: route.name,
      });
      this.methods.set(route.name, method);
    }
    for (const staff of props.staffRoutes ?? []) {
      const handler = props.handlers.get(staff.route.name);
      if (!handler) throw new Error(`No function for route ${staff.route.name}`);
      const resource = this.api.root.resourceForPath(staff.path);
      resources.set(staff.path, resource);
      // The /v1 route's own function on a second resource: no authorizer and no API key (staff hold none). The
      // function verifies the admin ID token before it reads anything else, so it can answer 401 with App
      // Bridge's retry header, which a gateway response of an authorizer's refusal could not choose per cause.
      const method = resource.addMethod(staff.method, integrate(handler), {
        authorizationType: AuthorizationType.NONE,
        apiKeyRequired: false,
        operationName: staffOperationName(staff),
      });
      this.methods.set(staffOperationName(staff), method);
    }
    for (const page of props.pages ?? []) {
      const handler = props.handlers.get(page.name);
      if (!handler) throw new Error(`No function for page ${page.name}`);
      const resource = this.api.root.resourceForPath(page.path);
      resources.set(page.path, resource);
      // No authorizer and no API key: Shopify's admin loads the page with an ID token in its address, which
      // the handler verifies (or answers App Bridge's bounce page).
      const method = resource.addMethod(page.method, integrate(handler), {
        authorizationType: AuthorizationType.NONE,
        apiKeyRequired: false,
        operationName: page.name,
      });
      this.methods.set(page.name, method);
    }

    // The CORS preflight of each staff path Shopify's UI extensions call (from an origin of their own; the POS
    // extension's staff-only routes among them): 204, no token, no function. Only those paths: a mock is a resource
    // of the stack's 500.
    const staffPaths = new Set([
      ...(props.staffRoutes ?? []).map((staff) => staff.path),
      ...(props.pages ?? []).filter((page) => isStaffResource(page.path)).map((page) => page.path),
    ]);
    for (const path of CROSS_ORIGIN_STAFF_PATHS.filter((candidate) => staffPaths.has(candidate))) {
      const parameters = Object.fromEntries(
        Object.entries(STAFF_PREFLIGHT_HEADERS).map(([name, value]) => [`method.response.header.${name}`, `'${value}'`]),
      );
      this.api.root.resourceForPath(path).addMethod(
        'OPTIONS',
        new MockIntegration({
          passthroughBehavior: PassthroughBehavior.WHEN_NO_TEMPLATES,
          requestTemplates: { 'application/json': '{"statusCode": 204}' },
          integrationResponses: [{ statusCode: '204', responseParameters: parameters }],
        }),
        {
          authorizationType: AuthorizationType.NONE,
          methodResponses: [
            { statusCode: '204', responseParameters: Object.fromEntries(Object.keys(parameters).map((name) => [name, true])) },
          ],
        },
      );
    }

    // Another method on a known path: 405 with Allow, as the local gateway answers; on a shopper path the same mock
    // answers the CORS preflight (OPTIONS) with 204 and the contract's headers, so a shopper path costs one mock, not
    // two. Not on the staff paths: a mock per path would spend a resource of the stack; there API Gateway answers
    // its 404. The mock's only request template is JSON's (API Gateway answers another content type 415).
    const corsParameters = Object.fromEntries(
      Object.entries(SHOPPER_CORS_HEADERS).map(([name, value]) => [`method.response.header.${name}`, `'${value}'`]),
    );
    for (const [path, resource] of resources) {
      if (isStaffResource(path)) continue;
      const shopper = shopperPaths.has(path);
      const allowed = [
        ...props.routes,
        ...props.webhooks,
        ...(props.shopperRoutes ?? []),
        ...(props.staffRoutes ?? []),
        ...(props.pages ?? []),
      ]
        .filter((route) => route.path === path)
        .map((route): string => route.method)
        .concat(shopper ? ['OPTIONS'] : [])
        .join(', ');
      const headers: Record<string, string> = {
        'method.response.header.Allow': `'${allowed}'`,
        'method.response.header.Cache-Control': "'no-store'",
        ...(shopper ? { 'method.response.header.Access-Control-Allow-Origin': "'*'" } : {}),
      };
      const notAllowed = {
        statusCode: '405',
        responseTemplates: json(envelope(405, `Method $context.httpMethod is not allowed on this path. Allowed: ${allowed}`)),
        responseParameters: headers,
      };
      resource.addMethod(
        'ANY',
        new MockIntegration({
          passthroughBehavior: PassthroughBehavior.WHEN_NO_TEMPLATES,
          requestTemplates: {
            'application/json': shopper ? PREFLIGHT_OR_NOT_ALLOWED : '{"statusCode": 405}',
          },
          // A mock's status selects its response: 405 by its pattern, the preflight's 204 as the default.
          integrationResponses: shopper
            ? [
                { ...notAllowed, selectionPattern: '405' },
                { statusCode: '204', responseParameters: corsParameters },
              ]
            : [notAllowed],
        }),
        {
          authorizationType: AuthorizationType.NONE,
          methodResponses: [
            { statusCode: '405', responseParameters: Object.fromEntries(Object.keys(headers).map((name) => [name, true])) },
            ...(shopper
              ? [{ statusCode: '204', responseParameters: Object.fromEntries(Object.keys(corsParameters).map((name) => [name, true])) }]
              : []),
          ],
        },
      );
    }

    for (const response of GATEWAY_RESPONSES) {
      this.api.addGatewayResponse(response.id, {
        type: response.type,
        statusCode: response.statusCode,
        // The storefront reads a refusal of the gateway's own (a throttled shopper request) across origins too.
        responseHeaders: { 'Content-Type': "'application/json'", 'Access-Control-Allow-Origin': "'*'", 'Cache-Control': "'no-store'" },
        templates: json(envelope(Number(response.statusCode), response.detail)),
      });
    }

    this.usagePlan = this.api.addUsagePlan('UsagePlan', {
      description: 'Per-key throttles of the loyalty API',
      throttle: THROTTLE_LIMITS.standard,
    });
    this.usagePlan.addApiStage({
      stage: this.api.deploymentStage,
      throttle: props.routes
        .filter((route) => route.throttle === 'strict')
        .map((route) => ({ method: this.methods.get(route.name)!, throttle: THROTTLE_LIMITS.strict })),
    });
  }
}
