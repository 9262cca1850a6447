// Where the CLI works: a DynamoDB endpoint such as the twin's DynamoDB Local (`--endpoint`), or a
// deployed stack (`--stack`) whose CloudFormation outputs name the table and the usage plan (and the
// Shopify webhook URL that `shopify-app-config` writes into the app's configuration).
import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import { CloudFormationClient, DescribeStacksCommand, type Stack } from '@aws-sdk/client-cloudformation';
import { resetEnv } from '../../shared/runtime/env';
import { resetDocumentClient } from '../../shared/data/client';
import { DEFAULT_LOCAL_TABLE, ensureTable, localClient } from '../local/dynamodb-local';
import { stageAuthorizerCache, twinAuthorizerCaches, type StageAuthorizerCache } from './stage-authorizer-cache';
import { runningTwins } from '../local/twin-registry';
import { registerTwinShopSecrets } from '../local/twin-shop-secrets';
import { apiGatewayUsagePlanKeys, type UsagePlan } from './usage-plan-keys';
import { twinUsagePlans } from './twin-usage-plans';

export { DEFAULT_LOCAL_TABLE } from '../local/dynamodb-local';

export interface TargetOptions {
  endpoint?: string;
  table?: string;
  stack?: string;
  region?: string;
}

export interface Target {
  description: string;
  /** The DynamoDB endpoint given with --endpoint; absent for a stack. */
  endpoint?: string;
  tableName: string;
  /**
   * The stack's usage plan, or at a loopback endpoint the usage plan of the twins running on that table;
   * null when there is none (no twin running), and usage-plan steps are skipped.
   */
  usagePlan: UsagePlan | null;
  /**
   * The authorizer cache `keys revoke` flushes: the stage's in the cloud, the running twins' on this table at
   * a loopback endpoint; null when there is none (a stack without the outputs, no twin running).
   */
  authorizerCache: StageAuthorizerCache | null;
  /** DynamoDB Local only: creates the table if missing, as the twin does. */
  ensureTable: (() => Promise<'created' | 'existed'>) | null;
  /**
   * Against a running twin: registers its shops' Shopify credentials from the configuration file it was
   * started with, before a command that calls the platform (the import's matching), so that a shop with a
   * Dev Dashboard app's client_id and client_secret gets tokens from the simulator's client credentials
   * grant. Null elsewhere: a stack's secrets are read from Secrets Manager when a call needs them.
   */
  loadPlatformCredentials: (() => void) | null;
}

/** A target that cannot be reached or is not a loyalty stack; the message says what to fix. */
export class TargetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetError';
  }
}

export async function stackOutputs(stackName: string, client: CloudFormationClient): Promise<Record<string, string>> {
  let stacks: Stack[] | undefined;
  try {
    stacks = (await client.send(new DescribeStacksCommand({ StackName: stackName }))).Stacks;
  } catch (error) {
    // CloudFormation reports an unknown stack as a ValidationError "Stack with id X does not exist".
    if ((error as Error).name === 'ValidationError' && /does not exist/.test((error as Error).message)) stacks = [];
    else throw error;
  }
  const stack = stacks?.[0];
  if (!stack) throw new TargetError(`Stack '${stackName}' not found in region ${await client.config.region()}`);
  return Object.fromEntries((stack.Outputs ?? []).map((output) => [output.OutputKey ?? '', output.OutputValue ?? '']));
}

/** The table and usage plan of a deployed loyalty stack, from its outputs. */
export async function readStackResources(
  stackName: string,
  client: CloudFormationClient,
): Promise<{
  tableName: string;
  usagePlanId: string;
  stage?: { restApiId: string; stageName: string };
  shopifySecretPrefix?: string;
}> {
  const outputs = await stackOutputs(stackName, client);
  const required = (name: string) => {
    const value = outputs[name];
    if (!value) throw new TargetError(`Stack '${stackName}' has no output '${name}': is it the loyalty API stack, fully deployed?`);
    return value;
  };
  // Stacks deployed before the authorizer cache have no such outputs, and no cache to flush.
  const stage =
    outputs.RestApiId && outputs.ApiStageName ? { stage: { restApiId: outputs.RestApiId, stageName: outputs.ApiStageName } } : {};
  // The prefix of the shops' Shopify secrets: the platform calls of `import` (matching customers) read them.
  const secrets = outputs.ShopifySecretPrefix ? { shopifySecretPrefix: outputs.ShopifySecretPrefix } : {};
  return { tableName: required('TableName'), usagePlanId: required('UsagePlanId'), ...stage, ...secrets };
}

/** The path of the Shopify webhook route, by which it is told apart in the `WebhookUrls` output. */
const SHOPIFY_WEBHOOK_PATH = '/webhooks/shopify';

/**
 * Where Shopify delivers the app's webhooks: the stack's `ShopifyWebhookUrl` output, or for a stack
 * deployed before that output, the Shopify entry of `WebhookUrls` ("POST https://…, POST https://…").
 */
export async function readShopifyWebhookUrl(stackName: string, client: CloudFormationClient): Promise<string> {
  const outputs = await stackOutputs(stackName, client);
  if (outputs.ShopifyWebhookUrl) return outputs.ShopifyWebhookUrl;
  const listed = (outputs.WebhookUrls ?? '')
    .split(',')
    .map((entry) => entry.trim().replace(/^POST\s+/, ''))
    .filter((url) => url !== '');
  const shopify = listed.find((url) => url.replace(/\/+$/, '').endsWith(SHOPIFY_WEBHOOK_PATH));
  if (shopify) return shopify;
  throw new TargetError(
    `Stack '${stackName}' has no output 'ShopifyWebhookUrl' (nor a Shopify entry in 'WebhookUrls'): is it the loyalty API stack, fully deployed?`,
  );
}

/** readShopifyWebhookUrl with a client of its own, in the region given or the SDK's default one. */
export async function stackShopifyWebhookUrl(
  stackName: string,
  regionOption: string | undefined,
): Promise<{ url: string; region: string }> {
  const cloudFormation = new CloudFormationClient(regionOption ? { region: regionOption } : {});
  try {
    const region = await sdkRegion(cloudFormation);
    return { url: await readShopifyWebhookUrl(stackName, cloudFormation), region };
  } finally {
    cloudFormation.destroy();
  }
}

/** The SDK's own resolution of the region (flag, AWS_REGION, profile), or a message saying how to give one. */
async function sdkRegion(client: CloudFormationClient): Promise<string> {
  try {
    return await client.config.region();
  } catch {
    throw new TargetError('No AWS region: pass --region or set AWS_REGION (or a region in your AWS profile)');
  }
}

/**
 * Resolves the target and points the shared data layer at it. The repositories read their settings
 * from the environment (as in Lambda), so the variables are set here and the cached config dropped.
 */
export async function resolveTarget(options: TargetOptions): Promise<Target> {
  const target = options.stack !== undefined ? await stackTarget(options.stack, options.region) : endpointTarget(options);
  process.env.TABLE_NAME = target.tableName;
  resetEnv();
  resetDocumentClient();
  return target;
}

function endpointTarget(options: TargetOptions): Target {
  const endpoint = options.endpoint ?? '';
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new TargetError(`--endpoint must be a URL such as http://127.0.0.1:8000, not '${endpoint}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TargetError(`--endpoint must be an http(s) URL, not '${endpoint}'`);
  process.env.DYNAMODB_ENDPOINT = endpoint;
  if (options.region) process.env.AWS_REGION = options.region;
  const tableName = options.table ?? DEFAULT_LOCAL_TABLE;
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  // The platform simulator of a twin serving this table, unless PLATFORM_BASE_URL names one: the import
  // matches customers through it as a deployed stack's import does through Shopify.
  const twin =
    loopback && !process.env.PLATFORM_BASE_URL ? runningTwins(endpoint, tableName).find((found) => found.platformUrl) : undefined;
  if (twin?.platformUrl) process.env.PLATFORM_BASE_URL = twin.platformUrl;
  const configFile = twin?.configFile;
  return {
    description: `DynamoDB at ${endpoint}`,
    endpoint,
    tableName,
    usagePlan: loopback ? twinUsagePlans(endpoint, tableName) : null,
    authorizerCache: loopback ? twinAuthorizerCaches(endpoint, tableName) : null,
    loadPlatformCredentials: configFile ? () => registerTwinShopSecrets(configFile) : null,
    ensureTable: loopback
      ? async () => {
          const client = localClient(endpoint);
          try {
            return await ensureTable(client, tableName);
          } finally {
            client.destroy();
          }
        }
      : null,
  };
}

async function stackTarget(stackName: string, regionOption: string | undefined): Promise<Target> {
  const cloudFormation = new CloudFormationClient(regionOption ? { region: regionOption } : {});
  try {
    // The SDK's own resolution, then handed to the data layer, which would otherwise fall back to
    // us-east-1 and miss the stack's table.
    const region = await sdkRegion(cloudFormation);
    const { tableName, usagePlanId, stage, shopifySecretPrefix } = await readStackResources(stackName, cloudFormation);
    const apiGateway = new APIGatewayClient({ region });
    delete process.env.DYNAMODB_ENDPOINT;
    delete process.env.PLATFORM_BASE_URL;
    if (shopifySecretPrefix) process.env.SHOPIFY_SECRET_PREFIX = shopifySecretPrefix;
    process.env.AWS_REGION = region;
    return {
      description: `stack ${stackName} (${region})`,
      tableName,
      usagePlan: { id: usagePlanId, keys: apiGatewayUsagePlanKeys(apiGateway) },
      authorizerCache: stage ? stageAuthorizerCache(apiGateway, stage.restApiId, stage.stageName) : null,
      ensureTable: null,
      loadPlatformCredentials: null,
    };
  } finally {
    cloudFormation.destroy();
  }
}

/**
 * An HTTP server answered, but not as DynamoDB: the SDK then reports only `UnknownError` (or an
 * error without DynamoDB's request id), e.g. when --endpoint is the twin's API port.
 */
export function answeredButNotDynamoDb(error: unknown): boolean {
  const { name, $metadata } = (error ?? {}) as { name?: string; $metadata?: { httpStatusCode?: number; requestId?: string } };
  if (name === 'UnknownError' || name === 'Unknown') return true;
  return $metadata?.httpStatusCode !== undefined && $metadata.requestId === undefined && !/Exception$/.test(name ?? '');
}

/** Asks the endpoint what DynamoDB would be asked, and says what answered instead and what was expected. */
export async function describeNotDynamoDb(endpoint: string): Promise<string> {
  let answer: string;
  try {
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-amz-json-1.0', 'X-Amz-Target': 'DynamoDB_20120810.ListTables' },
      body: '{}',
      signal: AbortSignal.timeout(5000),
    });
    const text = (await response.text()).replace(/\s+/g, ' ').trim();
    answer = `HTTP ${response.status}${text ? `: ${text.length > 160 ? `${text.slice(0, 160)}...` : text}` : ' with an empty body'}`;
  } catch (error) {
    answer = `no usable answer (${(error as Error).message})`;
  }
  return [
    `${endpoint} is not a DynamoDB endpoint: a ListTables request got ${answer}.`,
    "The CLI needs a DynamoDB endpoint, such as the DynamoDB Local of the twin, not the twin's API or platform simulator.",
    "The twin prints the exact command when it starts (the line 'Operator CLI for this twin: ...'); its DynamoDB Local listens on --port + 2 unless --dynamodb-port says otherwise (http://127.0.0.1:3002 for npm start).",
  ].join('\n');
}
