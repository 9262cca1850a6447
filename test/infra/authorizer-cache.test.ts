// The authorizer cache and the way revocation still holds: TTL and identity source, a stream on the
// table filtered to key items, a flusher allowed exactly the flush of this stage, retries, an
// on-failure queue, alarms; and with a TTL of 0, the uncached authorizer and no flusher.
import { Match } from 'aws-cdk-lib/assertions';
import { FLUSH_RETRY_ATTEMPTS } from '../../infra/cdk/constructs/authorizer-cache-flusher';
import { synthStack } from '../support/synth-stack';

jest.setTimeout(180_000);

type Properties = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const { template } = synthStack();
const resources = (t: typeof template, type: string) => Object.entries(t.findResources(type)) as Array<[string, Properties]>;
const flusherId = (t: typeof template) =>
  resources(t, 'AWS::Lambda::Function').find(([, fn]) => /authorizer cache/.test(fn.Properties.Description))?.[0];

describe('authorizer cache', () => {
  it('caches the REQUEST authorizer per Authorization header for 300 s by default', () => {
    template.resourceCountIs('AWS::ApiGateway::Authorizer', 1);
    template.hasResourceProperties('AWS::ApiGateway::Authorizer', {
      Type: 'REQUEST',
      IdentitySource: 'method.request.header.Authorization',
      AuthorizerResultTtlInSeconds: 300,
    });
  });

  it('answers a request without the header (refused by API Gateway itself) with the spec 401 envelope', () => {
    template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'UNAUTHORIZED',
      StatusCode: '401',
      ResponseTemplates: { 'application/json': Match.stringLikeRegexp('Missing Authorization header') },
    });
  });

  it('streams changed items and feeds only API key items to the flusher, with retries and an on-failure queue', () => {
    // The new image for the event delivery; the flusher's filter and handler read only the keys.
    template.hasResourceProperties('AWS::DynamoDB::Table', { StreamSpecification: { StreamViewType: 'NEW_IMAGE' } });
    const id = flusherId(template)!;
    const mapping = resources(template, 'AWS::Lambda::EventSourceMapping').find(([, m]) => m.Properties.FunctionName.Ref === id)?.[1];

    expect(mapping!.Properties).toMatchObject({
      EventSourceArn: { 'Fn::GetAtt': [expect.stringMatching(/^DataTable/), 'StreamArn'] },
      StartingPosition: 'LATEST',
      MaximumRetryAttempts: FLUSH_RETRY_ATTEMPTS,
      FilterCriteria: { Filters: [{ Pattern: JSON.stringify({ dynamodb: { Keys: { pk: { S: [{ prefix: 'KEY#' }] } } } }) }] },
      DestinationConfig: {
        OnFailure: { Destination: { 'Fn::GetAtt': [expect.stringMatching(/^AuthorizerCacheFlusherFailures/), 'Arn'] } },
      },
    });
  });

  it('lets the flusher flush exactly this stage authorizer cache and nothing else of API Gateway', () => {
    const id = flusherId(template)!;
    const fn = template.findResources('AWS::Lambda::Function')[id]!;
    const roleId = fn.Properties.Role['Fn::GetAtt'][0];
    const statements = Object.values(template.findResources('AWS::IAM::Policy'))
      .filter((policy) => policy.Properties.Roles.some((role: { Ref: string }) => role.Ref === roleId))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement) as Properties[];
    const apiGateway = statements.filter((statement) =>
      [statement.Action].flat().some((action: string) => action.startsWith('apigateway:')),
    );

    expect(apiGateway).toHaveLength(1);
    expect(apiGateway[0]!.Action).toBe('apigateway:DELETE');
    const resource = JSON.stringify(apiGateway[0]!.Resource);
    expect(resource).toMatch(/:apigateway:.*::\/restapis\//);
    expect(resource).toContain('"HttpApi');
    expect(resource).toMatch(/"\/stages\/",\{"Ref":"HttpApiDeploymentStageprod[0-9A-F]+"\},"\/cache\/authorizers"/);
    expect(fn.Properties.Environment.Variables).toMatchObject({
      REST_API_ID: { Ref: expect.stringMatching(/^HttpApi/) },
      API_STAGE_NAME: { Ref: expect.stringMatching(/^HttpApiDeploymentStageprod/) },
    });
    // Only the stream of the table: the flusher reads no item.
    expect(statements.flatMap((statement) => [statement.Action].flat())).not.toContain('dynamodb:GetItem');
  });

  it('alarms on a failed flush and on any batch left on the failure queue', () => {
    const alarms = resources(template, 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
    const id = flusherId(template)!;
    const [failuresId] = Object.keys(template.findResources('AWS::SQS::Queue')).filter((key) =>
      key.startsWith('AuthorizerCacheFlusherFailures'),
    );

    expect(alarms.find((a) => a.MetricName === 'Errors' && a.Dimensions[0].Value.Ref === id)).toMatchObject({ Threshold: 1, Period: 300 });
    expect(
      alarms.find((a) => a.MetricName === 'ApproximateNumberOfMessagesVisible' && a.Dimensions[0].Value['Fn::GetAtt']?.[0] === failuresId),
    ).toMatchObject({ Threshold: 1 });
  });

  it('exports the API id and stage the operator CLI flushes after a revoke', () => {
    expect(Object.keys(template.findOutputs('*'))).toEqual(expect.arrayContaining(['RestApiId', 'ApiStageName']));
  });

  it('with a TTL of 0: no identity source, no cache, no flusher', () => {
    const uncached = synthStack({ props: { authorizerCacheTtlSeconds: 0 } }).template;

    const authorizer = resources(uncached, 'AWS::ApiGateway::Authorizer')[0]?.[1];
    expect(authorizer!.Properties.AuthorizerResultTtlInSeconds).toBe(0);
    expect(authorizer!.Properties.IdentitySource).toBeUndefined();
    expect(flusherId(uncached)).toBeUndefined();
  });
});
