// The way to Klaviyo in the stack: a rule on the loyalty bus for the types Klaviyo hears of, its own queue and
// consumer (partial batch failures, at most KLAVIYO_CONSUMER_CONCURRENCY at once), a dead-letter queue for what
// could not be delivered and one for what Klaviyo refused, each with an alarm, and the consumer granted only
// what its entry declares.
import { Match } from 'aws-cdk-lib/assertions';
import { KLAVIYO_MAX_RECEIVE_COUNT } from '../../infra/cdk/constructs/klaviyo-delivery';
import { KLAVIYO_CONSUMER_CONCURRENCY } from '../../shared/klaviyo/klaviyo-consumer';
import { KLAVIYO_EVENT_TYPES, KLAVIYO_METRICS } from '../../shared/klaviyo/loyalty-event';
import { QUEUE_CONSUMERS } from '../../shared/runtime/entry-points';
import { synthStack } from '../support/synth-stack';

jest.setTimeout(180_000);

type Properties = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const { template } = synthStack();
const consumer = QUEUE_CONSUMERS.find((entry) => entry.queue === 'klaviyo')!;
const queues = template.findResources('AWS::SQS::Queue');
const idOf = (prefix: string) => {
  const ids = Object.keys(queues).filter((id) => id.startsWith(prefix));
  expect(ids).toHaveLength(1);
  return ids[0]!;
};
const queueId = idOf('KlaviyoQueue');
const deadLetterId = idOf('KlaviyoDeadLetter');
const refusedId = idOf('KlaviyoRefused');
const functions = template.findResources('AWS::Lambda::Function');
const consumerId = Object.keys(functions).find((id) => id.startsWith('FnDeliverKlaviyoEvents'))!;

function statementsOf(functionId: string): Properties[] {
  const roleId = functions[functionId]!.Properties.Role['Fn::GetAtt'][0];
  return Object.values(template.findResources('AWS::IAM::Policy'))
    .filter((policy) => policy.Properties.Roles.some((role: { Ref: string }) => role.Ref === roleId))
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Properties[]);
}
const actionsOf = (statements: Properties[]) => statements.flatMap((statement) => [statement.Action].flat() as string[]);

describe('the Klaviyo delivery in the stack', () => {
  it('puts the loyalty events Klaviyo hears of on its own queue, by a rule on the bus, with retries and a dead-letter queue', () => {
    expect(KLAVIYO_EVENT_TYPES).toEqual(expect.arrayContaining(Object.keys(KLAVIYO_METRICS)));
    template.hasResourceProperties('AWS::Events::Rule', {
      EventBusName: { Ref: Match.stringLikeRegexp('^Events') },
      EventPattern: { source: ['loyalty-api'], 'detail-type': [...KLAVIYO_EVENT_TYPES] },
      Targets: [
        Match.objectLike({
          Arn: { 'Fn::GetAtt': [queueId, 'Arn'] },
          RetryPolicy: { MaximumRetryAttempts: 10, MaximumEventAgeInSeconds: 24 * 3600 },
          DeadLetterConfig: { Arn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^UndeliveredEvents'), 'Arn'] } },
        }),
      ],
    });
    // EventBridge may send to the queue, from that rule only.
    template.hasResourceProperties('AWS::SQS::QueuePolicy', {
      Queues: [{ Ref: queueId }],
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Action: Match.arrayWith(['sqs:SendMessage']),
            Principal: { Service: 'events.amazonaws.com' },
            Condition: { ArnEquals: Match.anyValue() },
          }),
        ]),
      },
    });
  });

  it('queues encrypted, TLS only, parking an event after a few receives, and keeps a refusals queue beside it', () => {
    const queue = queues[queueId]!.Properties;
    expect(queue).toMatchObject({
      SqsManagedSseEnabled: true,
      VisibilityTimeout: 6 * consumer.timeoutSeconds,
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [deadLetterId, 'Arn'] }, maxReceiveCount: KLAVIYO_MAX_RECEIVE_COUNT },
    });
    for (const id of [deadLetterId, refusedId]) {
      expect(queues[id]!.Properties).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 });
    }
    for (const id of [queueId, deadLetterId, refusedId]) {
      template.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [{ Ref: id }],
        PolicyDocument: {
          Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
        },
      });
    }
  });

  it('feeds its consumer in batches that report partial failures, at most two at once', () => {
    const mappings = Object.values(template.findResources('AWS::Lambda::EventSourceMapping'))
      .map((mapping) => mapping.Properties)
      .filter((mapping) => mapping.FunctionName.Ref === consumerId);

    expect(KLAVIYO_CONSUMER_CONCURRENCY).toBe(2);
    expect(mappings).toEqual([
      expect.objectContaining({
        EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        BatchSize: 10,
        ScalingConfig: { MaximumConcurrency: KLAVIYO_CONSUMER_CONCURRENCY },
      }),
    ]);
    expect(functions[consumerId]!.Properties.Timeout).toBe(consumer.timeoutSeconds);
  });

  it('grants the consumer reads of the table, the shops’ secrets, and sending to the refusals queue only', () => {
    const statements = statementsOf(consumerId);
    const actions = actionsOf(statements);

    expect(actions).toEqual(
      expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query', 'secretsmanager:GetSecretValue', 'sqs:ReceiveMessage']),
    );
    for (const write of ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'events:PutEvents']) expect(actions).not.toContain(write);
    const sends = statements.filter((statement) => actionsOf([statement]).includes('sqs:SendMessage'));
    expect(sends.map((statement) => statement.Resource)).toEqual([{ 'Fn::GetAtt': [refusedId, 'Arn'] }]);
    expect(functions[consumerId]!.Properties.Environment.Variables.KLAVIYO_REFUSED_QUEUE_URL).toEqual({ Ref: refusedId });
    // No other function sends to the refusals queue or learns its URL.
    for (const [id, fn] of Object.entries(functions)) {
      if (id === consumerId) continue;
      expect(fn.Properties.Environment?.Variables?.KLAVIYO_REFUSED_QUEUE_URL).toBeUndefined();
    }
  });

  it('alarms on a message in either dead-letter queue, and on a failing consumer', () => {
    const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm')).map((alarm) => alarm.Properties);
    const onQueue = (id: string) =>
      alarms.find(
        (alarm) =>
          alarm.MetricName === 'ApproximateNumberOfMessagesVisible' &&
          JSON.stringify(alarm.Dimensions) === JSON.stringify([{ Name: 'QueueName', Value: { 'Fn::GetAtt': [id, 'QueueName'] } }]),
      );
    for (const id of [deadLetterId, refusedId]) {
      expect(onQueue(id)).toMatchObject({
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        AlarmActions: [{ Ref: expect.stringMatching(/^ObservabilityAlarmTopic/) }],
      });
    }
    expect(alarms.some((alarm) => alarm.MetricName === 'Errors' && JSON.stringify(alarm.Dimensions).includes(consumerId))).toBe(true);
  });
});
