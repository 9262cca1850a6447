import { GATEWAY_RESPONSES } from '../../infra/cdk/constructs/loyalty-api';
import { ROUTES, THROTTLE_LIMITS } from '../../shared/http/routes';
import { synthStack } from '../support/synth-stack';

const { template } = synthStack();
const resources = (type: string) => Object.entries(template.findResources(type));

describe('production stack', () => {
  it('has one function per manifest route plus the authorizer and the reconciler, all with the fixed defaults', () => {
    const functions = resources('AWS::Lambda::Function').map(([, r]) => r.Properties);

    expect(functions).toHaveLength(ROUTES.length + 2);
    for (const fn of functions) {
      expect(fn.Runtime).toMatch(/^nodejs(2[2-9]|[3-9]\d)\.x$/);
      expect(fn.Architectures).toEqual(['arm64']);
      expect(fn.TracingConfig).toEqual({ Mode: 'Active' });
      expect(fn.LoggingConfig.LogGroup).toBeDefined();
      expect(fn.Environment.Variables).toMatchObject({ TABLE_NAME: expect.anything(), NODE_OPTIONS: '--enable-source-maps' });
    }
    const descriptions = functions.map((fn) => fn.Description);
    for (const route of ROUTES) expect(descriptions).toContain(`${route.method} ${route.path}`);
  });

  it('keeps the X-Ray SDK out of the functions unless detailedTracing is asked for', () => {
    const tracingSetting = (t: typeof template) =>
      new Set(Object.values(t.findResources('AWS::Lambda::Function')).map((r) => r.Properties.Environment.Variables.POWERTOOLS_TRACE_ENABLED));

    expect(tracingSetting(template)).toEqual(new Set(['false']));
    expect(tracingSetting(synthStack({ props: { detailedTracing: true } }).template)).toEqual(new Set(['true']));
  });

  it('gives every function a log group with retention', () => {
    for (const [, group] of resources('AWS::Logs::LogGroup')) expect(group.Properties.RetentionInDays).toBeGreaterThan(0);
  });

  it('uses a REQUEST authorizer with no identity source and no result cache', () => {
    template.resourceCountIs('AWS::ApiGateway::Authorizer', 1);
    const [[, authorizer]] = resources('AWS::ApiGateway::Authorizer') as [[string, { Properties: Record<string, unknown> }]];
    expect(authorizer.Properties.Type).toBe('REQUEST');
    expect(authorizer.Properties.AuthorizerResultTtlInSeconds).toBe(0);
    expect(authorizer.Properties.IdentitySource).toBeUndefined();
  });

  it('takes API keys from the authorizer and requires them on every manifest method', () => {
    template.hasResourceProperties('AWS::ApiGateway::RestApi', { ApiKeySourceType: 'AUTHORIZER' });
    const methods = resources('AWS::ApiGateway::Method').map(([, m]) => m.Properties).filter((m) => m.HttpMethod !== 'ANY');

    expect(methods).toHaveLength(ROUTES.length);
    for (const method of methods) {
      expect(method.ApiKeyRequired).toBe(true);
      expect(method.AuthorizationType).toBe('CUSTOM');
    }
  });

  it('answers other methods on known paths with a 405 mock', () => {
    const paths = new Set(ROUTES.map((r) => r.path));
    const mocks = resources('AWS::ApiGateway::Method').map(([, m]) => m.Properties).filter((m) => m.HttpMethod === 'ANY');

    expect(mocks).toHaveLength(paths.size);
    for (const mock of mocks) expect(mock.Integration.Type).toBe('MOCK');
  });

  it('throttles per method in the usage plan: 6 rps on the strict routes, the default elsewhere', () => {
    const [[, plan]] = resources('AWS::ApiGateway::UsagePlan') as [[string, { Properties: { Throttle: unknown; ApiStages: Array<{ Throttle: Record<string, unknown> }> } }]];
    const strict = ROUTES.filter((r) => r.throttle === 'strict');

    expect(plan.Properties.Throttle).toEqual({ RateLimit: THROTTLE_LIMITS.standard.rateLimit, BurstLimit: THROTTLE_LIMITS.standard.burstLimit });
    const throttles = plan.Properties.ApiStages[0]!.Throttle;
    expect(Object.keys(throttles).sort()).toEqual(strict.map((r) => `${r.path}/${r.method}`).sort());
    for (const value of Object.values(throttles)) expect(value).toEqual({ RateLimit: 6, BurstLimit: 6 });
    expect(strict.map((r) => r.name).sort()).toEqual(
      ['getCustomerAnniversary', 'getCustomerBirthday', 'getEarningHistoryEntry', 'getRewardHistoryEntry', 'listEarningHistory', 'listRewardHistory'].sort(),
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
    expect(byType.ACCESS_DENIED.ResponseTemplates['application/json']).toContain('Invalid or revoked API key');
    expect(byType.MISSING_AUTHENTICATION_TOKEN.StatusCode).toBe('404');
    expect(byType.THROTTLED.StatusCode).toBe('429');
    expect(byType.DEFAULT_4XX).toBeDefined();
    expect(byType.DEFAULT_5XX.StatusCode).toBe('500');
  });

  it('writes access logs without the Authorization header', () => {
    const [[, stage]] = resources('AWS::ApiGateway::Stage') as [[string, { Properties: { AccessLogSetting: { Format: string }; TracingEnabled: boolean } }]];

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
        if (actions.some((a) => a.startsWith('dynamodb:') || a.startsWith('secretsmanager:') || a.startsWith('events:'))) {
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
      const actions = rolePolicies.flatMap(([, p]) => p.Properties.PolicyDocument.Statement.flatMap((s: { Action: string | string[] }) => [s.Action].flat()));
      for (const action of writeActions) expect(actions).not.toContain(action);
      expect(actions).not.toContain('secretsmanager:GetSecretValue');
    }
  });

  it('runs the reconciler every 5 minutes', () => {
    template.hasResourceProperties('AWS::Events::Rule', { ScheduleExpression: 'rate(5 minutes)' });
  });

  it('alarms to one SNS topic on 5XX rate, p99 latency, throttling, Lambda errors, DynamoDB errors and the reconciler', () => {
    const alarms = resources('AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
    const metricNames = alarms.map((a) => a.MetricName);

    expect(metricNames).toEqual(expect.arrayContaining(['5XXError', 'Latency', 'ThrottledRequests', 'SystemErrors', 'Errors']));
    expect(alarms.find((a) => a.MetricName === 'Latency').ExtendedStatistic).toBe('p99');
    expect(alarms.filter((a) => a.MetricName === 'Errors')).toHaveLength(ROUTES.length + 1);
    for (const alarm of alarms) expect(alarm.AlarmActions).toHaveLength(1);
    template.resourceCountIs('AWS::SNS::Topic', 1);
    template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com' });
  });

  it('exports what the operator CLI reads', () => {
    const outputs = Object.keys(template.findOutputs('*'));

    expect(outputs).toEqual(expect.arrayContaining(['ApiUrl', 'TableName', 'UsagePlanId', 'EventBusName', 'AlarmTopicArn', 'DashboardName']));
  });
});
