// The DynamoDB document client, created once per process (warm Lambdas reuse its connections).
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { env } from '../runtime/env';
import { traceAwsClient } from '../observability/tracing';
import { instrumentDynamoDbClient } from './dynamodb-stats';

let client: DynamoDBDocumentClient | undefined;

/** Something done to each raw client when it is created, before its first call. */
export type RawClientHook = (raw: DynamoDBClient) => void;

let rawClientHook: RawClientHook | undefined;

/**
 * Tests and the bench only. The tests put a fault-injecting middleware (throttling, 500s, lost answers) on the very
 * client the handlers use, below the SDK's retry strategy, so that the SDK retries those faults as it would retry
 * real ones; the bench's write recorder (bench/write-recorder.ts) sees every write through it. Nothing in
 * production calls it: without a hook the client is exactly as before.
 * Setting or clearing the hook drops the cached client, so the next call gets a client built with it.
 */
export function setRawClientHook(hook: RawClientHook | undefined): void {
  rawClientHook = hook;
  resetDocumentClient();
}

export function documentClient(): DynamoDBDocumentClient {
  if (client) return client;
  const settings = env();
  // DynamoDB Local accepts any credentials; a real endpoint given explicitly uses the normal AWS chain.
  const local = settings.DYNAMODB_ENDPOINT !== undefined && isLoopback(settings.DYNAMODB_ENDPOINT);
  const raw = traceAwsClient(
    new DynamoDBClient({
      region: settings.AWS_REGION,
      ...(settings.DYNAMODB_ENDPOINT ? { endpoint: settings.DYNAMODB_ENDPOINT } : {}),
      ...(local ? { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
      maxAttempts: 3,
    }),
  );
  if (settings.DYNAMODB_STATS) instrumentDynamoDbClient(raw);
  rawClientHook?.(raw);
  client = DynamoDBDocumentClient.from(raw, {
    marshallOptions: { removeUndefinedValues: true },
  });
  return client;
}

export function tableName(): string {
  return env().TABLE_NAME;
}

/** Drops the cached client (tests point handlers at another table or endpoint). */
export function resetDocumentClient(): void {
  client?.destroy();
  client = undefined;
}

function isLoopback(endpoint: string): boolean {
  const host = new URL(endpoint).hostname;
  return host === 'localhost' || host === '127.0.0.1' || host === '[::1]';
}
