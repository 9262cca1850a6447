import { APIGatewayClient, CreateApiKeyCommand, CreateUsagePlanKeyCommand, UpdateApiKeyCommand } from '@aws-sdk/client-api-gateway';
import { CloudFormationClient, DescribeStacksCommand, type Output } from '@aws-sdk/client-cloudformation';
import { mockClient } from 'aws-sdk-client-mock';
import { readStackResources, resolveTarget, TargetError } from '../../infra/cli/targets';
import { apiGatewayUsagePlanKeys } from '../../infra/cli/usage-plan-keys';
import { useEnvironment } from '../support/environment';

const apiGateway = mockClient(APIGatewayClient);
const cloudFormation = mockClient(CloudFormationClient);

beforeEach(() => {
  apiGateway.reset();
  cloudFormation.reset();
});

function stackWith(outputs: Output[]) {
  return { Stacks: [{ StackName: 'Loyalty', CreationTime: new Date(), StackStatus: 'CREATE_COMPLETE' as const, Outputs: outputs }] };
}

describe('usage-plan keys on API Gateway', () => {
  const keys = () => apiGatewayUsagePlanKeys(new APIGatewayClient({ region: 'eu-west-1' }));

  it('creates an enabled API Gateway key holding exactly the given value', async () => {
    apiGateway.on(CreateApiKeyCommand).resolves({ id: 'k-1' });

    const created = await keys().create('loyalty-demo-0123456789ab', 'usage-value-0123456789');

    expect(created).toEqual({ id: 'k-1' });
    expect(apiGateway.commandCalls(CreateApiKeyCommand)).toHaveLength(1);
    expect(apiGateway.commandCalls(CreateApiKeyCommand)[0]!.args[0].input).toMatchObject({
      name: 'loyalty-demo-0123456789ab',
      value: 'usage-value-0123456789',
      enabled: true,
    });
  });

  it('refuses to go on when API Gateway returns no key id', async () => {
    apiGateway.on(CreateApiKeyCommand).resolves({});

    await expect(keys().create('loyalty-demo-x', 'usage-value-0123456789')).rejects.toThrow(
      "did not return an id for the new key 'loyalty-demo-x'",
    );
  });

  it('attaches a key to the usage plan as an API_KEY', async () => {
    apiGateway.on(CreateUsagePlanKeyCommand).resolves({});

    await keys().attach('plan-9', 'k-1');

    expect(apiGateway.commandCalls(CreateUsagePlanKeyCommand)[0]!.args[0].input).toEqual({
      usagePlanId: 'plan-9',
      keyId: 'k-1',
      keyType: 'API_KEY',
    });
  });

  it('disables a key by patching /enabled to false', async () => {
    apiGateway.on(UpdateApiKeyCommand).resolves({});

    await keys().disable('k-1');

    expect(apiGateway.commandCalls(UpdateApiKeyCommand)[0]!.args[0].input).toEqual({
      apiKey: 'k-1',
      patchOperations: [{ op: 'replace', path: '/enabled', value: 'false' }],
    });
  });
});

describe('deployed stack outputs', () => {
  const client = () => new CloudFormationClient({ region: 'eu-west-1' });

  it('reads the table name and usage plan id from the stack outputs', async () => {
    cloudFormation.on(DescribeStacksCommand, { StackName: 'Loyalty' }).resolves(
      stackWith([
        { OutputKey: 'ApiUrl', OutputValue: 'https://x.example/prod/' },
        { OutputKey: 'TableName', OutputValue: 'loyalty-table' },
        { OutputKey: 'UsagePlanId', OutputValue: 'plan-9' },
      ]),
    );

    expect(await readStackResources('Loyalty', client())).toEqual({ tableName: 'loyalty-table', usagePlanId: 'plan-9' });
  });

  it("reads the API id and stage whose authorizer cache keys revoke flushes, and the prefix of the shops' Shopify secrets, when the stack has them", async () => {
    cloudFormation.on(DescribeStacksCommand, { StackName: 'Loyalty' }).resolves(
      stackWith([
        { OutputKey: 'TableName', OutputValue: 'loyalty-table' },
        { OutputKey: 'UsagePlanId', OutputValue: 'plan-9' },
        { OutputKey: 'RestApiId', OutputValue: 'abc123' },
        { OutputKey: 'ApiStageName', OutputValue: 'prod' },
        { OutputKey: 'ShopifySecretPrefix', OutputValue: 'loyalty/shopify/' },
      ]),
    );

    expect(await readStackResources('Loyalty', client())).toEqual({
      tableName: 'loyalty-table',
      usagePlanId: 'plan-9',
      stage: { restApiId: 'abc123', stageName: 'prod' },
      shopifySecretPrefix: 'loyalty/shopify/',
    });
  });

  it('names the missing output when the stack lacks one', async () => {
    cloudFormation.on(DescribeStacksCommand).resolves(stackWith([{ OutputKey: 'TableName', OutputValue: 'loyalty-table' }]));

    const reading = readStackResources('Loyalty', client());

    await expect(reading).rejects.toThrow(TargetError);
    await expect(readStackResources('Loyalty', client())).rejects.toThrow("Stack 'Loyalty' has no output 'UsagePlanId'");
  });

  it('says the stack is not found, with the region, when CloudFormation does not know it', async () => {
    const notFound = Object.assign(new Error('Stack with id Nope does not exist'), { name: 'ValidationError' });
    cloudFormation.on(DescribeStacksCommand).rejects(notFound);

    await expect(readStackResources('Nope', client())).rejects.toThrow("Stack 'Nope' not found in region eu-west-1");
  });

  it('lets other CloudFormation failures through as they are', async () => {
    cloudFormation.on(DescribeStacksCommand).rejects(Object.assign(new Error('User is not authorized'), { name: 'AccessDenied' }));

    await expect(readStackResources('Loyalty', client())).rejects.toThrow('User is not authorized');
  });
});

describe('resolving a --stack target', () => {
  // A local endpoint left over that the stack target must drop; the target sets TABLE_NAME and
  // AWS_REGION, and the whole environment is put back after each test.
  useEnvironment({ DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000', PLATFORM_BASE_URL: 'http://127.0.0.1:3001' }, { each: true });

  it('points the data layer at the stack table in the stack region, with no DynamoDB endpoint override', async () => {
    cloudFormation.on(DescribeStacksCommand).resolves(
      stackWith([
        { OutputKey: 'TableName', OutputValue: 'loyalty-table' },
        { OutputKey: 'UsagePlanId', OutputValue: 'plan-9' },
        { OutputKey: 'ShopifySecretPrefix', OutputValue: 'loyalty/shopify/' },
      ]),
    );

    const target = await resolveTarget({ stack: 'Loyalty', region: 'eu-west-1' });

    expect(target.tableName).toBe('loyalty-table');
    expect(target.usagePlan?.id).toBe('plan-9');
    expect(target.ensureTable).toBeNull();
    expect(process.env.TABLE_NAME).toBe('loyalty-table');
    expect(process.env.AWS_REGION).toBe('eu-west-1');
    expect(process.env.DYNAMODB_ENDPOINT).toBeUndefined();
    // The import's platform calls read the shop's Shopify secret, never a local simulator.
    expect(process.env.SHOPIFY_SECRET_PREFIX).toBe('loyalty/shopify/');
    expect(process.env.PLATFORM_BASE_URL).toBeUndefined();
  });

  it('refuses an endpoint that is not a URL', async () => {
    await expect(resolveTarget({ endpoint: 'localhost:8000' })).rejects.toThrow('--endpoint must be');
  });
});
