// What bounds an anonymous caller and where failed background work goes: the stage's default throttle,
// the optional WAF web ACL, and retries plus a dead-letter path for every scheduled job and queue consumer.
import type { Template } from 'aws-cdk-lib/assertions';
import {
  APP_PROXY_IP_RATE_LIMIT,
  APP_PROXY_REQUEST,
  APP_PROXY_SHOP_RATE_LIMIT,
  DEFAULT_FIREWALL_RATE_LIMIT,
  FIREWALL_WINDOW_SECONDS,
} from '../../infra/cdk/constructs/api-firewall';
import { JOB_RUN_RETRIES } from '../../infra/cdk/constructs/failed-job-runs';
import { DEFAULT_FULL_RATE_KEYS, stageThrottle } from '../../infra/cdk/constructs/loyalty-api';
import { MAX_RECEIVE_COUNT } from '../../infra/cdk/constructs/webhook-delivery-queue';
import { DETAILS, envelope } from '../../shared/http/errors';
import {
  QUEUE_CONSUMERS,
  SCHEDULED_JOBS,
  SHOPPER_BUDGET,
  SHOPPER_SHOPS_AT_FULL_RATE,
  THROTTLE_LIMITS,
  WEBHOOK_THROTTLE,
  WEBHOOKS,
} from '../../shared/runtime/entry-points';
import { synthAppWithContext, synthStack } from '../support/synth-stack';

jest.setTimeout(180_000);

type Properties = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const { template } = synthStack();
const propertiesOf = (t: Template, type: string): Properties[] => Object.values(t.findResources(type)).map((r) => r.Properties);
const idsOf = (t: Template, type: string, prefix: string) => Object.keys(t.findResources(type)).filter((id) => id.startsWith(prefix));
const stageDefault = (t: Template) =>
  (propertiesOf(t, 'AWS::ApiGateway::Stage')[0]!.MethodSettings as Properties[]).find(
    (setting) => setting.HttpMethod === '*' && setting.ResourcePath === '/*',
  );
/** A job the manifest does not have yet: what a new entry of SCHEDULED_JOBS gets without stack code. */
const NEW_JOB = { ...SCHEDULED_JOBS[0]!, name: 'sendReminders', cadence: 'rate(1 hour)' };

describe('the stage default throttle', () => {
  it('bounds every method, with a key or without, at the usage plan standard rate times the keys at full rate', () => {
    expect(stageDefault(template)).toMatchObject({
      ThrottlingRateLimit: THROTTLE_LIMITS.standard.rateLimit * DEFAULT_FULL_RATE_KEYS,
      ThrottlingBurstLimit: THROTTLE_LIMITS.standard.burstLimit * DEFAULT_FULL_RATE_KEYS,
    });
    expect(stageThrottle(DEFAULT_FULL_RATE_KEYS)).toEqual({ rateLimit: 500, burstLimit: 1000 });
  });

  it('follows fullRateKeys, and the webhooks keep their own per-method limits', () => {
    const { template: three } = synthStack({ props: { fullRateKeys: 3 } });
    expect(stageDefault(three)).toMatchObject({ ThrottlingRateLimit: 150, ThrottlingBurstLimit: 300 });
    const settings = propertiesOf(three, 'AWS::ApiGateway::Stage')[0]!.MethodSettings as Properties[];
    for (const hook of WEBHOOKS) {
      expect(settings).toContainEqual(
        expect.objectContaining({ HttpMethod: hook.method, ThrottlingRateLimit: WEBHOOK_THROTTLE.rateLimit }),
      );
    }
  });

  it("bounds the shopper methods for the whole service, all shops together: SHOPPER_SHOPS_AT_FULL_RATE shops' budgets", () => {
    const settings = propertiesOf(template, 'AWS::ApiGateway::Stage')[0]!.MethodSettings as Properties[];
    const setting = (method: string, path: string) =>
      settings.find((candidate) => candidate.HttpMethod === method && candidate.ResourcePath === `/${path.replaceAll('/', '~1')}`);

    // Ten busy shops at once before anyone is refused; one shop alone is held by its own budget, in the functions.
    expect(SHOPPER_SHOPS_AT_FULL_RATE).toBe(10);
    for (const path of ['/shopper/member', '/shopper/rewards/{id}/redeem']) {
      expect(setting('POST', path)).toMatchObject({ ThrottlingRateLimit: 200, ThrottlingBurstLimit: 400 });
    }
    for (const path of ['/shopper/program', '/shopper/member', '/shopper/member/activity']) {
      expect(setting('GET', path)).toMatchObject({ ThrottlingRateLimit: 1000, ThrottlingBurstLimit: 2000 });
    }
    expect(SHOPPER_BUDGET.write).toEqual({ rateLimit: 20, burstLimit: 40 });
  });

  it.each([0, 1.5, Number.NaN])('refuses fullRateKeys %s', (fullRateKeys) => {
    expect(() => synthStack({ props: { fullRateKeys } })).toThrow(/fullRateKeys must be a whole number/);
  });
});

describe('the WAF web ACL option', () => {
  it('is off by default', () => {
    expect(propertiesOf(template, 'AWS::WAFv2::WebACL')).toEqual([]);
    expect(propertiesOf(template, 'AWS::WAFv2::WebACLAssociation')).toEqual([]);
  });

  it('blocks a source IP above one key at the standard rate with the 429 envelope, on the API stage', () => {
    const { template: guarded } = synthStack({ props: { waf: true } });
    const [acl] = propertiesOf(guarded, 'AWS::WAFv2::WebACL');
    const [aclId] = idsOf(guarded, 'AWS::WAFv2::WebACL', 'Firewall');
    const [stageId] = Object.keys(guarded.findResources('AWS::ApiGateway::Stage'));

    expect(acl).toMatchObject({ Scope: 'REGIONAL', DefaultAction: { Allow: {} } });
    expect(acl!.Rules[0]).toEqual(
      expect.objectContaining({
        Name: 'RateLimitPerIp',
        Statement: {
          RateBasedStatement: expect.objectContaining({
            AggregateKeyType: 'IP',
            Limit: DEFAULT_FIREWALL_RATE_LIMIT,
            EvaluationWindowSec: FIREWALL_WINDOW_SECONDS,
          }),
        },
        Action: { Block: { CustomResponse: { ResponseCode: 429, CustomResponseBodyKey: 'RateLimited' } } },
      }),
    );
    expect(DEFAULT_FIREWALL_RATE_LIMIT).toBe(THROTTLE_LIMITS.standard.rateLimit * 300);
    expect(JSON.parse(acl!.CustomResponseBodies.RateLimited.Content)).toEqual(envelope(429, DETAILS.rateLimited));
    const [association] = propertiesOf(guarded, 'AWS::WAFv2::WebACLAssociation');
    expect(association!.WebACLArn).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
    expect(JSON.stringify(association!.ResourceArn)).toContain(stageId);
  });

  it("counts the app proxy's requests (Shopify's addresses, all shops) per shop, not under the per-IP limit", () => {
    const { template: guarded } = synthStack({ props: { waf: true } });
    const rules = propertiesOf(guarded, 'AWS::WAFv2::WebACL')[0]!.Rules as Properties[];
    const block = { Block: { CustomResponse: { ResponseCode: 429, CustomResponseBodyKey: 'RateLimited' } } };
    // An app proxy request: a shopper path, the stage's prefix or none before it, a signature and a shop.
    const appProxy = {
      AndStatement: {
        Statements: [
          {
            ByteMatchStatement: {
              FieldToMatch: { UriPath: {} },
              PositionalConstraint: 'CONTAINS',
              SearchString: '/shopper/',
              TextTransformations: [{ Priority: 0, Type: 'NONE' }],
            },
          },
          ...['signature', 'shop'].map((name) => ({
            SizeConstraintStatement: {
              FieldToMatch: { SingleQueryArgument: { Name: name } },
              ComparisonOperator: 'GT',
              Size: 0,
              TextTransformations: [{ Priority: 0, Type: 'NONE' }],
            },
          })),
        ],
      },
    };

    expect(rules.map((rule) => [rule.Name, rule.Priority])).toEqual([
      ['RateLimitPerIp', 0],
      ['AppProxyRateLimitPerShop', 1],
      ['AppProxyRateLimitPerIp', 2],
    ]);
    expect(rules[0]!.Statement.RateBasedStatement.ScopeDownStatement).toEqual({ NotStatement: { Statement: appProxy } });
    expect(rules[1]).toMatchObject({
      Statement: {
        RateBasedStatement: {
          AggregateKeyType: 'CUSTOM_KEYS',
          CustomKeys: [{ QueryArgument: { Name: 'shop', TextTransformations: [{ Priority: 0, Type: 'LOWERCASE' }] } }],
          Limit: APP_PROXY_SHOP_RATE_LIMIT,
          EvaluationWindowSec: FIREWALL_WINDOW_SECONDS,
          ScopeDownStatement: appProxy,
        },
      },
      Action: block,
      VisibilityConfig: { MetricName: 'LoyaltyApiAppProxyRateLimitPerShop' },
    });
    expect(rules[2]).toMatchObject({
      Statement: {
        RateBasedStatement: { AggregateKeyType: 'IP', Limit: APP_PROXY_IP_RATE_LIMIT, ScopeDownStatement: appProxy },
      },
      Action: block,
    });
    // A busy shop spending its whole shopper budget for the window; an address, the stage's shopper throttle's shops.
    expect(APP_PROXY_SHOP_RATE_LIMIT).toBe((SHOPPER_BUDGET.read.rateLimit + SHOPPER_BUDGET.write.rateLimit) * 300);
    expect(APP_PROXY_IP_RATE_LIMIT).toBe(APP_PROXY_SHOP_RATE_LIMIT * SHOPPER_SHOPS_AT_FULL_RATE);
    expect(APP_PROXY_REQUEST.andStatement).toBeDefined();
  });

  it('takes its limit from wafRateLimit and refuses one AWS WAF would not take', () => {
    const { template: guarded } = synthStack({ props: { waf: true, wafRateLimit: 2000 } });
    expect(propertiesOf(guarded, 'AWS::WAFv2::WebACL')[0]!.Rules[0].Statement.RateBasedStatement.Limit).toBe(2000);
    expect(() => synthStack({ props: { waf: true, wafRateLimit: 5 } })).toThrow(/wafRateLimit must be a whole number from 10/);
  });

  it('turns on from the CDK context (waf, wafRateLimit, fullRateKeys) as the CDK CLI runs the app', () => {
    const resources = synthAppWithContext({ waf: 'true', wafRateLimit: '3000', fullRateKeys: '4' });
    const acl = resources.find((r) => r.Type === 'AWS::WAFv2::WebACL')!;
    const stage = resources.find((r) => r.Type === 'AWS::ApiGateway::Stage')!;
    expect(acl.Properties.Rules[0].Statement.RateBasedStatement.Limit).toBe(3000);
    expect(stage.Properties.MethodSettings).toContainEqual(
      expect.objectContaining({ HttpMethod: '*', ResourcePath: '/*', ThrottlingRateLimit: 200, ThrottlingBurstLimit: 400 }),
    );
  });
});

describe('failed background work', () => {
  const { template: withNewJob } = synthStack({ props: { scheduledJobs: [...SCHEDULED_JOBS, NEW_JOB] } });
  const functions = withNewJob.findResources('AWS::Lambda::Function');
  const functionIdOf = (description: string) => Object.keys(functions).find((id) => functions[id]!.Properties.Description === description)!;
  const [failedRunsId] = idsOf(withNewJob, 'AWS::SQS::Queue', 'FailedJobRuns');

  it.each([...SCHEDULED_JOBS, NEW_JOB].map((job) => [job.name, job] as const))(
    'job %s: Lambda retries its failed runs, then sends them to the failed-runs queue, which it may write to',
    (_, job) => {
      const fnId = functionIdOf(`Scheduled job ${job.name}, ${job.cadence}`);
      const configs = Object.values(withNewJob.findResources('AWS::Lambda::EventInvokeConfig')).filter(
        (config) => config.Properties.FunctionName.Ref === fnId,
      );

      expect(configs.map((config) => config.Properties)).toEqual([
        expect.objectContaining({
          MaximumRetryAttempts: JOB_RUN_RETRIES.retryAttempts,
          MaximumEventAgeInSeconds: JOB_RUN_RETRIES.maxEventAge.toSeconds(),
          DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [failedRunsId, 'Arn'] } } },
        }),
      ]);
      const roleId = functions[fnId]!.Properties.Role['Fn::GetAtt'][0];
      const statements = Object.values(withNewJob.findResources('AWS::IAM::Policy'))
        .filter((policy) => policy.Properties.Roles.some((role: { Ref: string }) => role.Ref === roleId))
        .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Properties[]);
      expect(statements).toContainEqual(
        expect.objectContaining({ Action: expect.arrayContaining(['sqs:SendMessage']), Resource: { 'Fn::GetAtt': [failedRunsId, 'Arn'] } }),
      );
      // Delivery by EventBridge retries too, with its own dead-letter queue.
      const rule = propertiesOf(withNewJob, 'AWS::Events::Rule').find((r) => r.Targets?.[0]?.Arn?.['Fn::GetAtt']?.[0] === fnId);
      expect(rule!.Targets[0]).toMatchObject({ RetryPolicy: { MaximumRetryAttempts: 2 }, DeadLetterConfig: expect.anything() });
    },
  );

  it('gives only the scheduled jobs async retries (API functions and queue consumers are invoked synchronously)', () => {
    expect(Object.keys(withNewJob.findResources('AWS::Lambda::EventInvokeConfig'))).toHaveLength(SCHEDULED_JOBS.length + 1);
  });

  it('alarms on the failed-runs queue from its first message and names it in the outputs', () => {
    const alarm = propertiesOf(withNewJob, 'AWS::CloudWatch::Alarm').find(
      (a) => a.MetricName === 'ApproximateNumberOfMessagesVisible' && a.Dimensions[0].Value['Fn::GetAtt']?.[0] === failedRunsId,
    );
    expect(alarm).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
    expect(withNewJob.toJSON().Outputs.FailedJobRunsQueueUrl).toBeDefined();
  });

  it('has no failed-runs queue when there is no scheduled job', () => {
    expect(idsOf(synthStack({ props: { scheduledJobs: [] } }).template, 'AWS::SQS::Queue', 'FailedJobRuns')).toEqual([]);
  });

  it('feeds every queue consumer from a queue that sets a record aside after a few receives, in an alarmed dead-letter queue', () => {
    // SQS sources only: the table's stream feeds the authorizer-cache flusher, which has its own on-failure destination.
    const mappings = propertiesOf(withNewJob, 'AWS::Lambda::EventSourceMapping').filter((mapping) => !mapping.DestinationConfig);
    expect(mappings).toHaveLength(QUEUE_CONSUMERS.length);
    const queues = withNewJob.findResources('AWS::SQS::Queue');
    const alarms = propertiesOf(withNewJob, 'AWS::CloudWatch::Alarm');
    for (const mapping of mappings) {
      const redrive = queues[mapping.EventSourceArn['Fn::GetAtt'][0]]!.Properties.RedrivePolicy;
      expect(redrive.maxReceiveCount).toBe(MAX_RECEIVE_COUNT);
      const deadLetterId = redrive.deadLetterTargetArn['Fn::GetAtt'][0];
      expect(
        alarms.some(
          (a) => a.MetricName === 'ApproximateNumberOfMessagesVisible' && a.Dimensions[0].Value['Fn::GetAtt']?.[0] === deadLetterId,
        ),
      ).toBe(true);
    }
  });
});
