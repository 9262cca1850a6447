import { Match, Template } from 'aws-cdk-lib/assertions';
import { GATEWAY_RESPONSES, PREFLIGHT_OR_NOT_ALLOWED, staffOperationName } from '../../infra/cdk/constructs/loyalty-api';
import { DENY_DETAIL } from '../../functions/auth/authorize';
import {
  ACCESS_DENIED_METRIC,
  CODE_RESTORE_FAILED_METRIC,
  OLDEST_DELIVERY_ALARM_SECONDS,
  STORE_CREDIT_UNACCOUNTED_METRIC,
} from '../../infra/cdk/constructs/observability';
import { SERVER_ERRORS_METRIC } from '../../shared/observability/service';
import { MAX_RECEIVE_COUNT } from '../../infra/cdk/constructs/webhook-delivery-queue';
import {
  CROSS_ORIGIN_STAFF_PATHS,
  QUEUE_CONSUMERS,
  ROUTES,
  SCHEDULED_JOBS,
  SHOPPER_ROUTES,
  STAFF_API_PREFIX,
  STAFF_PREFLIGHT_HEADERS,
  STAFF_ROUTES,
  STAFF_THROTTLE,
  THROTTLE_LIMITS,
  WEBHOOK_THROTTLE,
  WEBHOOKS,
  ADMIN_PAGES,
  isStaffResource,
} from '../../shared/runtime/entry-points';
import { synthAppWithContext, synthStack } from '../support/synth-stack';
import { EMAIL_MATCH_SET_PARTITIONS, LIST_BOUNDARY_PARTITIONS } from '../../shared/data/keys';

interface PolicyStatementJson {
  Action: string | string[];
  Condition?: Record<string, Record<string, unknown>>;
}

jest.setTimeout(180_000);

const { template } = synthStack();
const resources = (type: string) => Object.entries(template.findResources(type));
const PARTNER_SOURCE = 'aws.partner/shopify.com/123456/loyalty';
/** Every function of the manifest besides the routes: the admin pages, the authorizer, the authorizer-cache flusher and the event delivery. */
const OTHER_FUNCTIONS = WEBHOOKS.length + SHOPPER_ROUTES.length + ADMIN_PAGES.length + QUEUE_CONSUMERS.length + SCHEDULED_JOBS.length + 3;

type Properties = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The logical id of the function whose description is `description`. */
function functionId(t: Template, description: string | RegExp): string {
  const matches = Object.entries(t.findResources('AWS::Lambda::Function')).filter(([, fn]) =>
    typeof description === 'string' ? fn.Properties.Description === description : description.test(fn.Properties.Description),
  );
  expect(matches).toHaveLength(1);
  return matches[0]![0];
}

/** Every IAM statement attached to the role of the function `id`. */
function statementsOf(t: Template, id: string): Properties[] {
  const fn = t.findResources('AWS::Lambda::Function')[id]!;
  const roleId = fn.Properties.Role['Fn::GetAtt'][0];
  return Object.values(t.findResources('AWS::IAM::Policy'))
    .filter((policy) => policy.Properties.Roles.some((role: { Ref: string }) => role.Ref === roleId))
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement);
}

const actionsOf = (statements: Properties[]) => statements.flatMap((statement) => [statement.Action].flat() as string[]);

/** The webhook delivery queue and its dead-letter queue, told apart by the redrive policy. */
function deliveryQueues(t: Template): { queueId: string; queue: Properties; deadLetterId: string } {
  const [[queueId, queue]] = Object.entries(t.findResources('AWS::SQS::Queue', { Properties: { RedrivePolicy: Match.anyValue() } })) as [
    [string, Properties],
  ];
  return { queueId, queue: queue.Properties, deadLetterId: queue.Properties.RedrivePolicy.deadLetterTargetArn['Fn::GetAtt'][0] };
}

describe('production stack', () => {
  it('has one function per manifest entry (routes, webhooks, queue consumers, jobs) plus the authorizer, all with the fixed defaults', () => {
    const functions = resources('AWS::Lambda::Function').map(([, r]) => r.Properties);

    expect(functions).toHaveLength(ROUTES.length + OTHER_FUNCTIONS);
    for (const fn of functions) {
      expect(fn.Runtime).toMatch(/^nodejs(2[2-9]|[3-9]\d)\.x$/);
      expect(fn.Architectures).toEqual(['arm64']);
      expect(fn.TracingConfig).toEqual({ Mode: 'Active' });
      expect(fn.LoggingConfig.LogGroup).toBeDefined();
      expect(fn.Environment.Variables).toMatchObject({ TABLE_NAME: expect.anything(), NODE_OPTIONS: '--enable-source-maps' });
    }
    const descriptions = functions.map((fn) => fn.Description);
    for (const route of [...ROUTES, ...WEBHOOKS]) expect(descriptions).toContain(`${route.method} ${route.path}`);
    for (const job of SCHEDULED_JOBS) expect(descriptions).toContain(`Scheduled job ${job.name}, ${job.cadence}`);
  });

  it('keeps the X-Ray SDK out of the functions unless detailedTracing is asked for', () => {
    const tracingSetting = (t: typeof template) =>
      new Set(
        Object.values(t.findResources('AWS::Lambda::Function')).map((r) => r.Properties.Environment.Variables.POWERTOOLS_TRACE_ENABLED),
      );

    expect(tracingSetting(template)).toEqual(new Set(['false']));
    expect(tracingSetting(synthStack({ props: { detailedTracing: true } }).template)).toEqual(new Set(['true']));
  });

  it('gives every function a log group with retention', () => {
    for (const [, group] of resources('AWS::Logs::LogGroup')) expect(group.Properties.RetentionInDays).toBeGreaterThan(0);
  });

  it('takes API keys from the authorizer and requires them on every manifest method', () => {
    template.hasResourceProperties('AWS::ApiGateway::RestApi', { ApiKeySourceType: 'AUTHORIZER' });
    const keyless = [...WEBHOOKS, ...SHOPPER_ROUTES, ...ADMIN_PAGES].map((hook) => hook.name).concat(STAFF_ROUTES.map(staffOperationName));
    const methods = resources('AWS::ApiGateway::Method')
      .map(([, m]) => m.Properties)
      .filter((m) => m.HttpMethod !== 'ANY' && m.HttpMethod !== 'OPTIONS' && !keyless.includes(m.OperationName));

    expect(methods).toHaveLength(ROUTES.length);
    for (const method of methods) {
      expect(method.ApiKeyRequired).toBe(true);
      expect(method.AuthorizationType).toBe('CUSTOM');
    }
  });

  it('serves each webhook through its function with no authorizer and no API key', () => {
    for (const hook of WEBHOOKS) {
      const [[, method]] = resources('AWS::ApiGateway::Method').filter(([, m]) => m.Properties.OperationName === hook.name) as [
        [string, Properties],
      ];

      expect(method.Properties).toMatchObject({ HttpMethod: hook.method, AuthorizationType: 'NONE', ApiKeyRequired: false });
      expect(method.Properties.AuthorizerId).toBeUndefined();
      expect(method.Properties.Integration.Type).toBe('AWS_PROXY');
      expect(JSON.stringify(method.Properties.Integration.Uri)).toContain(functionId(template, `${hook.method} ${hook.path}`));
    }
  });

  it('bounds each webhook with a stage method throttle, outside the usage plan', () => {
    const [[, stage]] = resources('AWS::ApiGateway::Stage') as [[string, Properties]];
    const [[, plan]] = resources('AWS::ApiGateway::UsagePlan') as [[string, Properties]];

    for (const hook of WEBHOOKS) {
      const resourcePath = `/${hook.path.replaceAll('/', '~1')}`;
      expect(stage.Properties.MethodSettings).toContainEqual(
        expect.objectContaining({
          ResourcePath: resourcePath,
          HttpMethod: hook.method,
          ThrottlingRateLimit: WEBHOOK_THROTTLE.rateLimit,
          ThrottlingBurstLimit: WEBHOOK_THROTTLE.burstLimit,
        }),
      );
      expect(Object.keys(plan.Properties.ApiStages[0].Throttle)).not.toContain(`${hook.path}/${hook.method}`);
    }
  });

  it('serves each shopper route through its function with no authorizer and no API key, under its own stage method throttle', () => {
    const [[, stage]] = resources('AWS::ApiGateway::Stage') as [[string, Properties]];
    const [[, plan]] = resources('AWS::ApiGateway::UsagePlan') as [[string, Properties]];
    for (const route of SHOPPER_ROUTES) {
      const [[, method]] = resources('AWS::ApiGateway::Method').filter(([, m]) => m.Properties.OperationName === route.name) as [
        [string, Properties],
      ];

      expect(method.Properties).toMatchObject({ HttpMethod: route.method, AuthorizationType: 'NONE', ApiKeyRequired: false });
      expect(method.Properties.AuthorizerId).toBeUndefined();
      expect(JSON.stringify(method.Properties.Integration.Uri)).toContain(functionId(template, `${route.method} ${route.path}`));
      expect(stage.Properties.MethodSettings).toContainEqual(
        expect.objectContaining({
          ResourcePath: `/${route.path.replaceAll('/', '~1')}`,
          HttpMethod: route.method,
          ThrottlingRateLimit: route.throttle.rateLimit,
          ThrottlingBurstLimit: route.throttle.burstLimit,
        }),
      );
      expect(Object.keys(plan.Properties.ApiStages[0].Throttle ?? {})).not.toContain(`${route.path}/${route.method}`);
    }
  });

  it("serves each /v1 route's /admin/api twin through the route's own function, without authorizer or API key, under a stage method throttle", () => {
    const [[, stage]] = resources('AWS::ApiGateway::Stage') as [[string, Properties]];
    const [[, plan]] = resources('AWS::ApiGateway::UsagePlan') as [[string, Properties]];
    const methods = resources('AWS::ApiGateway::Method').map(([, m]) => m.Properties);

    expect(STAFF_ROUTES).toHaveLength(ROUTES.length);
    for (const route of ROUTES) {
      const staff = STAFF_ROUTES.find((candidate) => candidate.route.name === route.name)!;
      expect(staff.path).toBe(`${STAFF_API_PREFIX}${route.path}`);
      const [method] = methods.filter((m) => m.OperationName === staffOperationName(staff));
      const v1 = methods.find((m) => m.OperationName === route.name)!;

      expect(method).toMatchObject({ HttpMethod: route.method, AuthorizationType: 'NONE', ApiKeyRequired: false });
      expect(method!.AuthorizerId).toBeUndefined();
      expect(method!.Integration.Type).toBe('AWS_PROXY');
      // One Lambda per endpoint: the twin integrates the /v1 route's function.
      expect(method!.Integration.Uri).toEqual(v1.Integration.Uri);
      expect(JSON.stringify(method!.Integration.Uri)).toContain(functionId(template, `${route.method} ${route.path}`));
      const throttle = route.method === 'GET' ? STAFF_THROTTLE.read : STAFF_THROTTLE.write;
      expect(stage.Properties.MethodSettings).toContainEqual(
        expect.objectContaining({
          ResourcePath: `/${staff.path.replaceAll('/', '~1')}`,
          HttpMethod: route.method,
          ThrottlingRateLimit: throttle.rateLimit,
          ThrottlingBurstLimit: throttle.burstLimit,
        }),
      );
      expect(Object.keys(plan.Properties.ApiStages[0].Throttle ?? {})).not.toContain(`${staff.path}/${staff.method}`);
    }
  });

  it("lets API Gateway invoke each route function from this API's stage, its /admin/api twin included, and grants it the shops' Shopify secrets to verify ID tokens", () => {
    const permissions = resources('AWS::Lambda::Permission').map(([, p]) => p.Properties);
    const methods = resources('AWS::ApiGateway::Method').map(([, m]) => m.Properties);
    const restApiId = resources('AWS::ApiGateway::RestApi')[0]![0];
    for (const staff of STAFF_ROUTES) {
      const fnId = functionId(template, `${staff.route.method} ${staff.route.path}`);
      // One permission per function, for every method of the stage: the /v1 method and its /admin/api twin.
      const own = permissions.filter((p) => JSON.stringify(p.FunctionName).includes(fnId));
      expect(own).toHaveLength(1);
      expect(own[0]).toMatchObject({ Action: 'lambda:InvokeFunction', Principal: 'apigateway.amazonaws.com' });
      expect(JSON.stringify(own[0].SourceArn)).toContain(`{"Ref":"${restApiId}"},"/prod/*"`);
      // The twin's method integrates the route's own function.
      const twin = methods.filter((m) => m.OperationName === staffOperationName(staff));
      expect(twin).toHaveLength(1);
      expect(JSON.stringify(twin[0].Integration.Uri)).toContain(fnId);
      expect(twin[0].Integration).toMatchObject({ Type: 'AWS_PROXY', IntegrationHttpMethod: 'POST' });
      const statements = statementsOf(template, fnId);
      expect(actionsOf(statements)).toContain('secretsmanager:GetSecretValue');
    }
    // No function of its own: the twins add methods, not functions.
    expect(resources('AWS::Lambda::Function')).toHaveLength(ROUTES.length + OTHER_FUNCTIONS);
  });

  it("answers OPTIONS on each shopper path with a 204 from the path's mock, carrying the contract's CORS headers, without a token", () => {
    const mocks = resources('AWS::ApiGateway::Method')
      .map(([, m]) => m.Properties)
      .filter((m) => m.HttpMethod === 'ANY' && m.Integration.RequestTemplates['application/json'] === PREFLIGHT_OR_NOT_ALLOWED);
    expect(mocks).toHaveLength(new Set(SHOPPER_ROUTES.map((route) => route.path)).size);
    // No OPTIONS method of their own: the ANY mock answers the preflight, a resource fewer per shopper path.
    const shopperOptions = resources('AWS::ApiGateway::Method')
      .map(([, m]) => m.Properties)
      .filter(
        (m) =>
          m.HttpMethod === 'OPTIONS' &&
          !m.Integration.IntegrationResponses[0].ResponseParameters['method.response.header.Access-Control-Max-Age'],
      );
    expect(shopperOptions).toEqual([]);
    for (const mock of mocks) {
      expect(mock).toMatchObject({ AuthorizationType: 'NONE', Integration: { Type: 'MOCK' } });
      expect(mock.ApiKeyRequired).not.toBe(true);
      const [notAllowed, preflight] = mock.Integration.IntegrationResponses;
      expect(notAllowed).toMatchObject({ StatusCode: '405', SelectionPattern: '405' });
      expect(preflight.SelectionPattern).toBeUndefined();
      expect(preflight).toMatchObject({
        StatusCode: '204',
        ResponseParameters: {
          'method.response.header.Access-Control-Allow-Origin': "'*'",
          'method.response.header.Access-Control-Allow-Methods': "'GET, POST, OPTIONS'",
          'method.response.header.Access-Control-Allow-Headers': "'Authorization, Content-Type, Idempotency-Key'",
        },
      });
    }
  });

  it("answers OPTIONS on the staff paths the admin's and POS's extensions call with a 204 mock, without a token, and on no other", () => {
    const preflights = resources('AWS::ApiGateway::Method')
      .map(([, m]) => m.Properties)
      .filter(
        (m) =>
          m.HttpMethod === 'OPTIONS' &&
          m.Integration.IntegrationResponses[0].ResponseParameters['method.response.header.Access-Control-Max-Age'],
      );
    const pathOf = (resourceId: { Ref: string }): string => {
      const resource = template.toJSON().Resources[resourceId.Ref] as { Properties: { ParentId: unknown; PathPart: string } };
      const parent = resource.Properties.ParentId as { Ref?: string };
      return `${parent.Ref ? pathOf(parent as { Ref: string }) : ''}/${resource.Properties.PathPart}`;
    };

    // One each, in whatever order the template lists its methods.
    expect(preflights.map((m) => pathOf(m.ResourceId)).sort()).toEqual([...CROSS_ORIGIN_STAFF_PATHS].sort());
    for (const preflight of preflights) {
      expect(preflight).toMatchObject({ AuthorizationType: 'NONE', Integration: { Type: 'MOCK' } });
      expect(preflight.ApiKeyRequired).not.toBe(true);
      expect(preflight.Integration.IntegrationResponses[0]).toMatchObject({
        StatusCode: '204',
        ResponseParameters: Object.fromEntries(
          Object.entries(STAFF_PREFLIGHT_HEADERS).map(([name, value]) => [`method.response.header.${name}`, `'${value}'`]),
        ),
      });
    }
  });

  it('answers other methods on known paths with a 405 mock', () => {
    // Not the staff paths: API Gateway answers its 404 there (a mock each would spend the stack's resources).
    const paths = new Set(
      [...ROUTES, ...WEBHOOKS, ...SHOPPER_ROUTES, ...ADMIN_PAGES].map((r) => r.path).filter((path) => !isStaffResource(path)),
    );
    const mocks = resources('AWS::ApiGateway::Method')
      .map(([, m]) => m.Properties)
      .filter((m) => m.HttpMethod === 'ANY');

    expect(mocks).toHaveLength(paths.size);
    for (const mock of mocks) expect(mock.Integration.Type).toBe('MOCK');
  });

  it('throttles per method in the usage plan: 6 rps on the strict routes, the default elsewhere', () => {
    const [[, plan]] = resources('AWS::ApiGateway::UsagePlan') as [
      [string, { Properties: { Throttle: unknown; ApiStages: Array<{ Throttle: Record<string, unknown> }> } }],
    ];
    const strict = ROUTES.filter((r) => r.throttle === 'strict');

    expect(plan.Properties.Throttle).toEqual({
      RateLimit: THROTTLE_LIMITS.standard.rateLimit,
      BurstLimit: THROTTLE_LIMITS.standard.burstLimit,
    });
    const throttles = plan.Properties.ApiStages[0]!.Throttle;
    expect(Object.keys(throttles).sort()).toEqual(strict.map((r) => `${r.path}/${r.method}`).sort());
    for (const value of Object.values(throttles)) expect(value).toEqual({ RateLimit: 6, BurstLimit: 6 });
    expect(strict.map((r) => r.name).sort()).toEqual(
      [
        'getCustomerAnniversary',
        'getCustomerBirthday',
        'getEarningHistoryEntry',
        'getRewardHistoryEntry',
        'listEarningHistory',
        'listRewardHistory',
      ].sort(),
    );
  });

  it('rewrites every gateway response into the error envelope', () => {
    const responses = resources('AWS::ApiGateway::GatewayResponse').map(([, r]) => r.Properties);

    for (const expected of GATEWAY_RESPONSES) {
      const response = responses.find((r) => r.ResponseType === expected.type.responseType);
      expect(response?.StatusCode).toBe(expected.statusCode);
      const body = JSON.parse(response.ResponseTemplates['application/json']);
      expect(body).toEqual({ errors: [{ status: expected.statusCode, title: expect.any(String), detail: expected.detail }] });
    }
    const byType = Object.fromEntries(responses.map((r) => [r.ResponseType, r]));
    expect(byType.UNAUTHORIZED.StatusCode).toBe('401');
    expect(byType.UNAUTHORIZED.ResponseTemplates['application/json']).toContain('Missing Authorization header');
    expect(byType.ACCESS_DENIED.StatusCode).toBe('401');
    // The authorizer's Deny names the detail (functions/auth/authorize.ts, DENY_DETAIL); the template prints it.
    expect(JSON.parse(byType.ACCESS_DENIED.ResponseTemplates['application/json']).errors[0].detail).toBe(
      `$context.authorizer.${DENY_DETAIL}`,
    );
    expect(byType.INVALID_API_KEY.ResponseTemplates['application/json']).toContain('Invalid or revoked API key');
    expect(byType.MISSING_AUTHENTICATION_TOKEN.StatusCode).toBe('404');
    expect(byType.THROTTLED.StatusCode).toBe('429');
    expect(byType.DEFAULT_4XX).toBeDefined();
    // Its own answers may echo a path holding an e-mail: never cached, as the functions' answers.
    for (const response of responses) expect(response.ResponseParameters['gatewayresponse.header.Cache-Control']).toBe("'no-store'");
    // A function's failure keeps API Gateway's own 502 (test/infra/gateway-responses.test.ts).
    expect(byType.DEFAULT_5XX.StatusCode).toBe('502');
  });

  it('writes access logs without the Authorization header', () => {
    const [[, stage]] = resources('AWS::ApiGateway::Stage') as [
      [string, { Properties: { AccessLogSetting: { Format: string }; TracingEnabled: boolean } }],
    ];

    expect(stage.Properties.TracingEnabled).toBe(true);
    expect(stage.Properties.AccessLogSetting.Format).toContain('$context.requestId');
    expect(stage.Properties.AccessLogSetting.Format).not.toMatch(/Authorization/i);
  });

  it('grants least privilege: no dynamodb:*, no data action on "*", read-only routes cannot write', () => {
    const writeActions = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];
    const policies = resources('AWS::IAM::Policy');
    for (const [, policy] of policies) {
      for (const statement of policy.Properties.PolicyDocument.Statement) {
        const actions: string[] = [statement.Action].flat();
        expect(actions).not.toContain('dynamodb:*');
        const resourcesOf = [statement.Resource].flat();
        // dynamodb:ListStreams (the flusher's stream) exists only on "*" and reads no data.
        const dataActions = actions.filter((a) => a !== 'dynamodb:ListStreams');
        if (dataActions.some((a) => a.startsWith('dynamodb:') || a.startsWith('secretsmanager:') || a.startsWith('events:'))) {
          expect(resourcesOf).not.toContain('*');
        }
      }
    }
    const readRoutes = ROUTES.filter((r) => r.scope === 'read').map((r) => `${r.method} ${r.path}`);
    const functions = resources('AWS::Lambda::Function');
    for (const [, fn] of functions) {
      if (!readRoutes.includes(fn.Properties.Description) && fn.Properties.Description !== 'API key authorizer') continue;
      const roleId = fn.Properties.Role['Fn::GetAtt'][0];
      const rolePolicies = policies.filter(([, p]) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === roleId));
      const statements = rolePolicies.flatMap(([, p]) => p.Properties.PolicyDocument.Statement as PolicyStatementJson[]);
      // The list's remembered page boundaries and e-mail searches are its one write, held to their own partitions.
      const boundaryWrites = statements.filter((s) => s.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys']);
      for (const statement of boundaryWrites) {
        expect(fn.Properties.Description).toBe('GET /v1/customers');
        expect(statement).toEqual(
          expect.objectContaining({
            Action: 'dynamodb:BatchWriteItem',
            Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [LIST_BOUNDARY_PARTITIONS, EMAIL_MATCH_SET_PARTITIONS] } },
          }),
        );
      }
      const actions = statements.filter((s) => !boundaryWrites.includes(s)).flatMap((s) => [s.Action].flat());
      for (const action of writeActions) expect(actions).not.toContain(action);
      // A route's function verifies its /admin/api twin's ID token with the shop's app secret; the authorizer reads no secret.
      if (fn.Properties.Description === 'API key authorizer') expect(actions).not.toContain('secretsmanager:GetSecretValue');
      else expect(actions).toContain('secretsmanager:GetSecretValue');
      if (fn.Properties.Description === 'GET /v1/customers') expect(boundaryWrites).toHaveLength(1);
    }
  });

  it('lets the webhook receiver send to the webhook delivery queue and nothing more: no receive, no delete, no other function sending', () => {
    const { queueId } = deliveryQueues(template);
    const [hook] = WEBHOOKS;
    const receiver = functionId(template, `${hook!.method} ${hook!.path}`);
    const sqsStatements = statementsOf(template, receiver).filter((s) => actionsOf([s]).some((a) => a.startsWith('sqs:')));

    expect(sqsStatements).toEqual([
      expect.objectContaining({ Effect: 'Allow', Action: 'sqs:SendMessage', Resource: { 'Fn::GetAtt': [queueId, 'Arn'] } }),
    ]);
    expect(actionsOf(statementsOf(template, receiver))).toEqual(
      expect.arrayContaining(['secretsmanager:GetSecretValue', 'dynamodb:GetItem']),
    );
    for (const action of ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'events:PutEvents'])
      expect(actionsOf(statementsOf(template, receiver))).not.toContain(action);
    const fn = template.findResources('AWS::Lambda::Function')[receiver]!;
    expect(fn.Properties.Environment.Variables.WEBHOOK_DELIVERY_QUEUE_URL).toEqual({ Ref: queueId });

    // To the delivery queue (the scheduled jobs send only to their failed-runs queue).
    const sendsToDeliveryQueue = (statement: Properties) =>
      actionsOf([statement]).includes('sqs:SendMessage') && JSON.stringify(statement.Resource).includes(`"${queueId}"`);
    const senders = resources('AWS::Lambda::Function')
      .filter(([id]) => statementsOf(template, id).some(sendsToDeliveryQueue))
      .map(([id]) => id);
    expect(senders).toEqual([receiver]);
  });

  it('queues webhook deliveries encrypted and over TLS only, with a dead-letter queue after 5 receives and a visibility of six processor timeouts', () => {
    const { queueId, queue, deadLetterId } = deliveryQueues(template);
    const [consumer] = QUEUE_CONSUMERS;
    const processor = template.findResources('AWS::Lambda::Function')[functionId(template, /^Consumes the webhook delivery queue/)]!;
    const deadLetter = template.findResources('AWS::SQS::Queue')[deadLetterId]!;

    expect(processor.Properties.Timeout).toBe(consumer!.timeoutSeconds);
    expect(queue.VisibilityTimeout).toBe(6 * consumer!.timeoutSeconds);
    expect(queue.RedrivePolicy.maxReceiveCount).toBe(MAX_RECEIVE_COUNT);
    expect(MAX_RECEIVE_COUNT).toBe(5);
    expect(queue.SqsManagedSseEnabled).toBe(true);
    expect(deadLetter.Properties).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 });
    for (const id of [queueId, deadLetterId]) {
      template.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [{ Ref: id }],
        PolicyDocument: {
          Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
        },
      });
    }
  });

  it('keeps the logical ids the webhook delivery queue was first deployed under, so an update never replaces it', () => {
    // New logical ids would make CloudFormation create new queues and delete the old ones with the deliveries in
    // them, and drop the queue policies (TLS only, the partner source's permission) (docs/decisions.md).
    const { queueId, deadLetterId } = deliveryQueues(template);
    const partner = synthStack({ props: { shopifyEventSourceName: PARTNER_SOURCE } }).template;

    expect({ queueId, deadLetterId }).toEqual({ queueId: 'OrderEventsQueue0D4C30B0', deadLetterId: 'OrderEventsDeadLetterEB81E620' });
    expect(deliveryQueues(partner)).toMatchObject({ queueId: 'OrderEventsQueue0D4C30B0', deadLetterId: 'OrderEventsDeadLetterEB81E620' });
    for (const t of [template, partner]) {
      expect(Object.keys(t.findResources('AWS::SQS::QueuePolicy'))).toEqual(
        expect.arrayContaining(['OrderEventsQueuePolicy8C8FD55A', 'OrderEventsDeadLetterPolicy571759EA']),
      );
    }
  });

  it('feeds the processor from the queue in batches that report partial failures', () => {
    const { queueId } = deliveryQueues(template);
    const processor = functionId(template, /^Consumes the webhook delivery queue/);
    const mappings = resources('AWS::Lambda::EventSourceMapping')
      .map(([, m]) => m.Properties)
      .filter((m) => m.FunctionName.Ref === processor);

    expect(mappings).toEqual([
      expect.objectContaining({
        EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
        FunctionName: { Ref: processor },
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        BatchSize: 10,
        MaximumBatchingWindowInSeconds: 1,
      }),
    ]);
    const actions = actionsOf(statementsOf(template, processor));
    // The shop's Shopify secret: automatic enrolment and merges into a non-member read the customer from Shopify.
    expect(actions).toEqual(
      expect.arrayContaining([
        'sqs:ReceiveMessage',
        'sqs:DeleteMessage',
        'dynamodb:PutItem',
        'events:PutEvents',
        'secretsmanager:GetSecretValue',
      ]),
    );
    expect(actions).not.toContain('sqs:SendMessage');
  });

  it('runs each scheduled job on its cadence, with delivery retries and a dead-letter queue', () => {
    const rules = resources('AWS::Events::Rule')
      .map(([, r]) => r.Properties)
      .filter((r) => r.ScheduleExpression);

    expect(rules.map((r) => r.ScheduleExpression).sort()).toEqual(SCHEDULED_JOBS.map((job) => job.cadence).sort());
    for (const job of SCHEDULED_JOBS) {
      const fnId = functionId(template, `Scheduled job ${job.name}, ${job.cadence}`);
      const rule = rules.find((r) => r.ScheduleExpression === job.cadence && r.Targets[0].Arn['Fn::GetAtt'][0] === fnId);
      expect(rule?.Targets).toEqual([
        expect.objectContaining({
          RetryPolicy: { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 300 },
          DeadLetterConfig: { Arn: { 'Fn::GetAtt': [expect.stringMatching(/^UndeliveredEvents/), 'Arn'] } },
        }),
      ]);
      expect(template.findResources('AWS::Lambda::Function')[fnId]!.Properties.Timeout).toBe(job.timeoutSeconds);
      // Each job is granted what its manifest entry declares, and nothing it does not use.
      const actions = actionsOf(statementsOf(template, fnId));
      expect(actions).toEqual(expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:UpdateItem']));
      expect(actions.includes('secretsmanager:GetSecretValue')).toBe((job.uses ?? []).includes('platform'));
      expect(actions.includes('events:PutEvents')).toBe((job.uses ?? []).includes('events'));
    }
    // The purchase reconciler keeps the 5-minute schedule it had before the job list.
    expect(SCHEDULED_JOBS.find((job) => job.name === 'purchase_reconciler')?.cadence).toBe('rate(5 minutes)');
  });

  it('alarms on every dead letter, on webhook deliveries waiting too long and on every failed job', () => {
    const alarms = resources('AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
    const { queueId, deadLetterId } = deliveryQueues(template);
    const queueAlarm = (metric: string, id: string) =>
      alarms.find((a) => a.MetricName === metric && a.Dimensions[0].Value['Fn::GetAtt']?.[0] === id);

    const [undeliveredId] = Object.keys(template.findResources('AWS::SQS::Queue')).filter((id) => id.startsWith('UndeliveredEvents'));
    for (const id of [deadLetterId, undeliveredId!]) {
      expect(queueAlarm('ApproximateNumberOfMessagesVisible', id)).toMatchObject({
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        Statistic: 'Maximum',
      });
    }
    expect(queueAlarm('ApproximateAgeOfOldestMessage', queueId)).toMatchObject({
      Threshold: OLDEST_DELIVERY_ALARM_SECONDS,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    for (const job of SCHEDULED_JOBS) {
      const fnId = functionId(template, `Scheduled job ${job.name}, ${job.cadence}`);
      expect(alarms.find((a) => a.MetricName === 'Errors' && a.Dimensions[0].Value.Ref === fnId)).toMatchObject({
        Threshold: 1,
        Period: 900,
      });
    }
    const dashboard = JSON.stringify(resources('AWS::CloudWatch::Dashboard')[0]![1].Properties.DashboardBody);
    expect(dashboard).toContain('ApproximateAgeOfOldestMessage');
    expect(dashboard).toContain('Dead letters');
    // What each clock-driven job's runs read and changed (published per job by the scheduled job handler).
    expect(dashboard).toMatch(/MetricName=.*JobItemsDue/);
    expect(dashboard).toMatch(/MetricName=.*JobItemsChanged/);
  });

  it('has no Shopify partner event source unless asked for', () => {
    const buses = resources('AWS::Events::EventBus').map(([, b]) => b.Properties);

    expect(buses).toHaveLength(1);
    expect(buses[0].EventSourceName).toBeUndefined();
  });

  it('with a Shopify partner event source, sends its webhook events to the webhook delivery queue (whole events, with retries and a dead-letter queue)', () => {
    const partner = synthStack({ props: { shopifyEventSourceName: PARTNER_SOURCE } }).template;
    const { queueId } = deliveryQueues(partner);
    const [busId] = Object.keys(partner.findResources('AWS::Events::EventBus', { Properties: { EventSourceName: PARTNER_SOURCE } }));

    partner.hasResourceProperties('AWS::Events::EventBus', { Name: PARTNER_SOURCE, EventSourceName: PARTNER_SOURCE });
    partner.hasResourceProperties('AWS::Events::Rule', {
      EventBusName: { Ref: busId },
      EventPattern: { 'detail-type': ['shopifyWebhook'] },
      Targets: [
        Match.objectLike({
          Arn: { 'Fn::GetAtt': [queueId, 'Arn'] },
          InputTransformer: Match.absent(),
          Input: Match.absent(),
          RetryPolicy: Match.objectLike({ MaximumRetryAttempts: 8 }),
          DeadLetterConfig: { Arn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^UndeliveredEvents'), 'Arn'] } },
        }),
      ],
    });
    // EventBridge may send to the queue, and only for this rule.
    partner.hasResourceProperties('AWS::SQS::QueuePolicy', {
      Queues: [{ Ref: queueId }],
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Allow',
            Principal: { Service: 'events.amazonaws.com' },
            Action: Match.arrayWith(['sqs:SendMessage']),
            Condition: { ArnEquals: { 'aws:SourceArn': Match.anyValue() } },
          }),
        ]),
      },
    });
    expect(() => synthStack({ props: { shopifyEventSourceName: 'aws.partner/other.com/1/x' } })).toThrow(/aws\.partner\/shopify\.com/);
  });

  it('turns the partner event source on from the CDK context shopifyEventSourceName', () => {
    const buses = synthAppWithContext({ shopifyEventSourceName: PARTNER_SOURCE }).filter((r) => r.Type === 'AWS::Events::EventBus');
    expect(buses.map((bus) => bus.Properties.EventSourceName)).toContain(PARTNER_SOURCE);
  });

  it('alarms to one SNS topic on 5XX rate, p99 latency, throttling, Lambda errors, DynamoDB errors, the queues and the jobs', () => {
    const alarms = resources('AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
    const metricNames = alarms.map((a) => a.MetricName);

    expect(metricNames).toEqual(
      expect.arrayContaining([
        '5XXError',
        'Latency',
        'ThrottledRequests',
        'SystemErrors',
        'Errors',
        'ApproximateNumberOfMessagesVisible',
        'ApproximateAgeOfOldestMessage',
      ]),
    );
    expect(alarms.find((a) => a.MetricName === 'Latency').ExtendedStatistic).toBe('p99');
    // Lambda's Errors alone for every function but the routes (and the authorizer, which has none); the
    // routes' alarms add their 5XX answers (next test).
    expect(alarms.filter((a) => a.MetricName === 'Errors')).toHaveLength(OTHER_FUNCTIONS - 1);
    for (const alarm of alarms) expect(alarm.AlarmActions).toHaveLength(1);
    template.resourceCountIs('AWS::SNS::Topic', 1);
    template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com' });
  });

  it("alarms on each route's failed invocations and 5XX answers, never on its 4XX, with the 5XX answers on the dashboard", () => {
    const alarms = resources('AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
    const withMath = alarms.filter((a) => Array.isArray(a.Metrics));

    expect(SERVER_ERRORS_METRIC).toBe('ServerErrors');
    expect(withMath).toHaveLength(ROUTES.length);
    for (const route of ROUTES) {
      const fnId = functionId(template, `${route.method} ${route.path}`);
      const routeAlarm = withMath.find((a) =>
        a.Metrics.some((m: Properties) => m.MetricStat?.Metric.Dimensions?.some((d: Properties) => d.Value === route.name)),
      );
      expect(routeAlarm).toMatchObject({
        Threshold: 3,
        EvaluationPeriods: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        TreatMissingData: 'notBreaching',
      });
      const byId = Object.fromEntries(routeAlarm.Metrics.map((m: Properties) => [m.Id, m]));
      expect(byId.errors.MetricStat).toMatchObject({
        Metric: { Namespace: 'AWS/Lambda', MetricName: 'Errors', Dimensions: [{ Name: 'FunctionName', Value: { Ref: fnId } }] },
        Period: 300,
        Stat: 'Sum',
      });
      expect(byId.serverErrors.MetricStat).toMatchObject({
        Metric: {
          Namespace: 'LoyaltyApi',
          MetricName: 'ServerErrors',
          Dimensions: expect.arrayContaining([
            { Name: 'service', Value: 'loyalty-api' },
            { Name: 'Route', Value: route.name },
          ]),
        },
        Period: 300,
        Stat: 'Sum',
      });
      expect(routeAlarm.Metrics.find((m: Properties) => m.Expression)).toMatchObject({
        Expression: 'FILL(errors, 0) + FILL(serverErrors, 0)',
        ReturnData: true,
      });
    }
    // No alarm counts 4XX answers, and none watches the ERROR lines of a log.
    expect(alarms.map((a) => a.MetricName)).not.toContain('4XXError');
    template.resourceCountIs('AWS::Logs::MetricFilter', 1);
    const body = JSON.stringify(resources('AWS::CloudWatch::Dashboard')[0]![1].Properties.DashboardBody);
    expect(body).toContain('5XX answers by route');
    expect(body).toContain('{LoyaltyApi,Route,service}');
    expect(body).toMatch(/MetricName=.*ServerErrors/);
  });

  it('alarms at the first call Shopify refuses for want of access, with a line on the dashboard', () => {
    const [topicId] = Object.keys(template.findResources('AWS::SNS::Topic'));
    const alarms = resources('AWS::CloudWatch::Alarm')
      .map(([, a]) => a.Properties)
      .filter((a) => a.MetricName === 'PlatformAccessDenied');

    expect(ACCESS_DENIED_METRIC).toBe('PlatformAccessDenied');
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toMatchObject({
      Namespace: 'LoyaltyApi',
      Dimensions: [{ Name: 'service', Value: 'loyalty-api' }],
      Statistic: 'Sum',
      Period: 300,
      EvaluationPeriods: 1,
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
      AlarmActions: [{ Ref: topicId }],
    });
    const body = JSON.stringify(resources('AWS::CloudWatch::Dashboard')[0]![1].Properties.DashboardBody);
    expect(body).toMatch(/Shopify access denied/);
    expect(body).toMatch(/\\"LoyaltyApi\\",\\"PlatformAccessDenied\\",\\"service\\",\\"loyalty-api\\"/);
  });

  it('alarms at the first store credit nobody paid for, and at the first refund that left a reward without its code', () => {
    const [topicId] = Object.keys(template.findResources('AWS::SNS::Topic'));
    for (const metric of [STORE_CREDIT_UNACCOUNTED_METRIC, CODE_RESTORE_FAILED_METRIC]) {
      const alarms = resources('AWS::CloudWatch::Alarm')
        .map(([, a]) => a.Properties)
        .filter((a) => a.MetricName === metric);
      expect(alarms).toEqual([
        expect.objectContaining({ Namespace: 'LoyaltyApi', Threshold: 1, Period: 300, AlarmActions: [{ Ref: topicId }] }),
      ]);
    }
  });

  it('outputs the URL the Shopify app subscribes its topics to', () => {
    const output = template.findOutputs('ShopifyWebhookUrl').ShopifyWebhookUrl;
    const [, parts] = output!.Value['Fn::Join'] as [string, unknown[]];

    expect(parts[0]).toBe('https://');
    expect(parts.at(-1)).toBe('/webhooks/shopify');
  });

  it('exports what the operator CLI reads', () => {
    const outputs = Object.keys(template.findOutputs('*'));

    expect(outputs).toEqual(
      expect.arrayContaining([
        'ApiUrl',
        'WebhookUrls',
        'ShopifyWebhookUrl',
        'TableName',
        'UsagePlanId',
        'EventBusName',
        'OrderEventQueueUrl',
        'OrderEventDeadLetterQueueUrl',
        'AlarmTopicArn',
        'DashboardName',
      ]),
    );
  });
});
