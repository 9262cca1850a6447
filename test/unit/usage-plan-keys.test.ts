import { APIGatewayClient, CreateApiKeyCommand, CreateUsagePlanKeyCommand, UpdateApiKeyCommand } from '@aws-sdk/client-api-gateway';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { mockClient } from 'aws-sdk-client-mock';
import { stackOutputs } from '../../infra/cli/targets';
import { apiGatewayUsagePlanKeys } from '../../infra/cli/usage-plan-keys';

describe('usage-plan keys on API Gateway', () => {
  const apiGateway = mockClient(APIGatewayClient);
  beforeEach(() => apiGateway.reset());

  it('creates an enabled key with the given value and attaches it to the usage plan', async () => {
    apiGateway.on(CreateApiKeyCommand).resolves({ id: 'k-1' });
    apiGateway.on(CreateUsagePlanKeyCommand).resolves({});

    const created = await apiGatewayUsagePlanKeys('plan-9', apiGateway as unknown as APIGatewayClient).createAndAttach('loyalty-x', 'value-1');

    expect(created).toEqual({ id: 'k-1' });
    expect(apiGateway.commandCalls(CreateApiKeyCommand)[0]!.args[0].input).toMatchObject({ name: 'loyalty-x', value: 'value-1', enabled: true });
    expect(apiGateway.commandCalls(CreateUsagePlanKeyCommand)[0]!.args[0].input).toEqual({ usagePlanId: 'plan-9', keyId: 'k-1', keyType: 'API_KEY' });
  });

  it('disables a key on revocation', async () => {
    apiGateway.on(UpdateApiKeyCommand).resolves({});

    await apiGatewayUsagePlanKeys('plan-9', apiGateway as unknown as APIGatewayClient).disable('k-1');

    expect(apiGateway.commandCalls(UpdateApiKeyCommand)[0]!.args[0].input).toEqual({
      apiKey: 'k-1',
      patchOperations: [{ op: 'replace', path: '/enabled', value: 'false' }],
    });
  });
});

describe('stack outputs', () => {
  const cloudFormation = mockClient(CloudFormationClient);
  beforeEach(() => cloudFormation.reset());

  it('reads the outputs of the stack', async () => {
    cloudFormation.on(DescribeStacksCommand).resolves({
      Stacks: [{ StackName: 'S', CreationTime: new Date(), StackStatus: 'CREATE_COMPLETE', Outputs: [{ OutputKey: 'TableName', OutputValue: 't' }, { OutputKey: 'UsagePlanId', OutputValue: 'p' }] }],
    });

    expect(await stackOutputs('S', cloudFormation as unknown as CloudFormationClient)).toEqual({ TableName: 't', UsagePlanId: 'p' });
  });

  it('says so when the stack does not exist', async () => {
    cloudFormation.on(DescribeStacksCommand).resolves({ Stacks: [] });

    await expect(stackOutputs('Nope', cloudFormation as unknown as CloudFormationClient)).rejects.toThrow("Stack 'Nope' not found");
  });
});
