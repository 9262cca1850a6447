// Where the CLI works: the twin's DynamoDB (`--endpoint`), or a deployed stack (`--stack`), whose
// CloudFormation outputs name the table and the usage plan.
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { resetEnv } from '../../shared/config/env';
import { resetDocumentClient } from '../../shared/data/client';
import { apiGatewayUsagePlanKeys, type UsagePlanKeys } from './usage-plan-keys';

export interface Target {
  description: string;
  tableName: string;
  /** Null against the twin: there is no usage plan to attach keys to. */
  usagePlanKeys: UsagePlanKeys | null;
}

export async function stackOutputs(stackName: string, client = new CloudFormationClient({})): Promise<Record<string, string>> {
  const result = await client.send(new DescribeStacksCommand({ StackName: stackName }));
  const stack = result.Stacks?.[0];
  if (!stack) throw new Error(`Stack '${stackName}' not found`);
  return Object.fromEntries((stack.Outputs ?? []).map((output) => [output.OutputKey ?? '', output.OutputValue ?? '']));
}

function required(outputs: Record<string, string>, name: string, stackName: string): string {
  const value = outputs[name];
  if (!value) throw new Error(`Stack '${stackName}' has no output '${name}': is it the loyalty API stack?`);
  return value;
}

/** Points the shared data layer (which reads its settings from the environment) at the target. */
export async function resolveTarget(options: { endpoint?: string; table?: string; stack?: string; region?: string }): Promise<Target> {
  if (options.region) process.env.AWS_REGION = options.region;
  let target: Target;
  if (options.endpoint) {
    process.env.DYNAMODB_ENDPOINT = options.endpoint;
    target = { description: `DynamoDB at ${options.endpoint}`, tableName: options.table ?? 'loyalty-local', usagePlanKeys: null };
  } else if (options.stack) {
    delete process.env.DYNAMODB_ENDPOINT;
    const outputs = await stackOutputs(options.stack);
    target = {
      description: `stack ${options.stack}`,
      tableName: options.table ?? required(outputs, 'TableName', options.stack),
      usagePlanKeys: apiGatewayUsagePlanKeys(required(outputs, 'UsagePlanId', options.stack)),
    };
  } else {
    throw new Error('Say where to work: --stack NAME (a deployed stack) or --endpoint URL (the local twin\'s DynamoDB)');
  }
  process.env.TABLE_NAME = target.tableName;
  resetEnv();
  resetDocumentClient();
  return target;
}
