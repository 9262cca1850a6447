// Delivery of committed domain events in the stack: the table's stream carries each item's new image, a
// function reads it filtered to the insertion of domain event items, from the oldest record, with bisection,
// partial batch responses, retries for as long as the stream keeps a record and an on-failure queue; it may put
// events on the bus and read no item; alarms on its errors, its lag and its failure queue; and the stream has no
// third reader.
import { DELIVERY_RETRY_ATTEMPTS } from '../../infra/cdk/constructs/event-delivery';
import { EVENT_DELIVERY_BEHIND_MS } from '../../infra/cdk/constructs/observability';
import { synthStack } from '../support/synth-stack';

jest.setTimeout(180_000);

type Properties = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const { template } = synthStack();
const resources = (type: string) => Object.entries(template.findResources(type)) as Array<[string, Properties]>;
const deliveryId = resources('AWS::Lambda::Function').find(([, fn]) =>
  /domain events from the table stream/.test(fn.Properties.Description),
)?.[0];
const streamMappings = resources('AWS::Lambda::EventSourceMapping').filter(([, m]) =>
  JSON.stringify(m.Properties.EventSourceArn).includes('StreamArn'),
);

describe('event delivery', () => {
  it('streams each changed item’s new image', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', { StreamSpecification: { StreamViewType: 'NEW_IMAGE' } });
  });

  it('feeds the function the insertion of domain event items only, from the oldest record, until each is delivered or too old', () => {
    const mapping = streamMappings.find(([, m]) => m.Properties.FunctionName.Ref === deliveryId)?.[1];

    expect(mapping!.Properties).toMatchObject({
      EventSourceArn: { 'Fn::GetAtt': [expect.stringMatching(/^DataTable/), 'StreamArn'] },
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: 100,
      MaximumBatchingWindowInSeconds: 0,
      ParallelizationFactor: 1,
      BisectBatchOnFunctionError: true,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      MaximumRetryAttempts: DELIVERY_RETRY_ATTEMPTS,
      MaximumRecordAgeInSeconds: 86_400,
      FilterCriteria: {
        Filters: [{ Pattern: JSON.stringify({ eventName: ['INSERT'], dynamodb: { Keys: { pk: { S: [{ prefix: 'DOMAIN_EVENT#' }] } } } }) }],
      },
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [expect.stringMatching(/^EventDeliveryFailures/), 'Arn'] } } },
    });
  });

  it('has two readers on the table’s stream at most: the flusher and the delivery', () => {
    expect(streamMappings).toHaveLength(2);
  });

  it('lets the function put events on the bus and read the stream, and no item of the table', () => {
    const fn = template.findResources('AWS::Lambda::Function')[deliveryId!]!;
    const roleId = fn.Properties.Role['Fn::GetAtt'][0];
    const actions = Object.values(template.findResources('AWS::IAM::Policy'))
      .filter((policy) => policy.Properties.Roles.some((role: { Ref: string }) => role.Ref === roleId))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Properties[])
      .flatMap((statement) => [statement.Action].flat() as string[]);

    expect(actions).toContain('events:PutEvents');
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetRecords', 'dynamodb:GetShardIterator']));
    expect(actions.filter((action) => /^dynamodb:(GetItem|Query|Scan|PutItem|UpdateItem|DeleteItem|BatchWriteItem)$/.test(action))).toEqual(
      [],
    );
    expect(fn.Properties.Environment.Variables.EVENT_BUS_NAME).toEqual({ Ref: expect.stringMatching(/^Events/) });
  });

  it('alarms on an error of the function, on events waiting a minute for the bus, and on any batch on its failure queue', () => {
    const alarms = resources('AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
    const [failuresId] = Object.keys(template.findResources('AWS::SQS::Queue')).filter((key) => key.startsWith('EventDeliveryFailures'));
    const of = (metric: string) => alarms.filter((a) => a.MetricName === metric && a.Dimensions?.[0]?.Value?.Ref === deliveryId);

    expect(of('Errors')).toEqual([expect.objectContaining({ Threshold: 1 })]);
    expect(of('IteratorAge')).toEqual([expect.objectContaining({ Threshold: EVENT_DELIVERY_BEHIND_MS, Statistic: 'Maximum' })]);
    expect(
      alarms.find((a) => a.MetricName === 'ApproximateNumberOfMessagesVisible' && a.Dimensions[0].Value['Fn::GetAtt']?.[0] === failuresId),
    ).toMatchObject({ Threshold: 1 });
  });
});
