// Starts the local twin inside a test file: the file's own DynamoDB Local (stream-dynamodb.ts), a fresh table,
// random ports.
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { localClient } from '../../infra/local/dynamodb-local';
import type { QueueCounts } from '../../infra/local/in-process-queue';
import { parseConfig } from '../../shared/config/schema';
import { startTwin, type Twin, type TwinOptions } from '../../infra/local/twin';
import { streamEndpoint } from './stream-dynamodb';
import { uniqueTableName } from './test-table';
import { provisionUsageKey } from '../../shared/shops/usage-plan-keys';

/** The functions' settings in a test twin: no shop configuration cache, quick platform retries and timeouts. */
const TEST_ENVIRONMENT = { SHOP_CONFIG_TTL_SECONDS: '0', PLATFORM_RETRY_BASE_MS: '5', PLATFORM_TIMEOUT_MS: '1000' };

/**
 * A twin on the configuration given (an object, or the path of a configuration file). `throttling:
 * false` lets a test file call the 6 requests/second routes as fast as it likes; `environment`
 * overrides or adds to the functions' test settings; `tableName` restarts on the table of a twin
 * stopped earlier (as `--persist` does) instead of a fresh one. Each jest test file has its own copy
 * of the process environment, so what the twin sets ends with the file. Webhook deliveries are processed
 * inline (their effects visible when the webhook is answered) unless `deliveries: 'queued'`, as in the stack
 * and `npm start`; then `drainDeliveries(twin)` waits for them.
 */
export async function startTestTwin(
  config: unknown,
  options: {
    throttling?: boolean;
    environment?: TwinOptions['environment'];
    tableName?: string;
    deliveries?: TwinOptions['deliveries'];
  } = {},
): Promise<TestTwin> {
  const twin = await startTwin({
    config: typeof config === 'string' ? config : parseConfig(config),
    port: 0,
    dynamodbEndpoint: await streamEndpoint(),
    tableName: options.tableName ?? uniqueTableName('e2e'),
    environment: { ...TEST_ENVIRONMENT, ...options.environment },
    // A loaded CI machine may take longer than Shopify's 5 s to process a burst inline; the tests check
    // effects, not the receiver's latency (the bench measures that).
    webhookDeliveryTimeoutMs: 60_000,
    deliveries: options.deliveries ?? 'inline',
    ...(options.throttling === false ? { throttling: false } : {}),
  });
  return {
    ...twin,
    // The table goes with the twin unless kept for a twin started on it next: the file's later twins start
    // on fresh tables, and what a stopped twin left cannot leak into them.
    async stop(stopOptions = {}) {
      await twin.stop();
      if (stopOptions.keepTable) return;
      const client = localClient(twin.dynamodbEndpoint);
      await client.send(new DeleteTableCommand({ TableName: twin.tableName })).catch(() => undefined);
      client.destroy();
    },
  };
}

/** `POST /_deliveries/drain`: answers once every webhook delivery the twin received so far was processed. */
export async function drainDeliveries(twin: Pick<Twin, 'url'>): Promise<QueueCounts> {
  const answer = await fetch(`${twin.url}/_deliveries/drain`, { method: 'POST' });
  if (answer.status !== 200) throw new Error(`POST /_deliveries/drain answered ${answer.status}: ${await answer.text()}`);
  return (await answer.json()) as QueueCounts;
}

/**
 * The usage-plan fields of a key a test writes straight into the table: a key of the twin's usage plan, enabled
 * and attached, as `keys create` gives one. Without them the twin refuses the key, as API Gateway does.
 */
export async function usageKeyFields(twin: Pick<Twin, 'usagePlan'>): Promise<{ usage_identifier_key: string; usage_key_id: string }> {
  const usage = await provisionUsageKey('test', 'test', twin.usagePlan);
  return { usage_identifier_key: usage.value, usage_key_id: usage.id };
}

/** A test's twin: `stop({ keepTable: true })` keeps its table for a twin started on it next (`tableName`). */
export interface TestTwin extends Twin {
  stop(options?: { keepTable?: boolean }): Promise<void>;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON
}

/** One request: the body sent as JSON when given, the answer parsed as JSON when it is JSON, else kept as text. */
export async function sendJson(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: unknown,
  options: { timeoutMs?: number } = {},
): Promise<ApiResponse> {
  const response = await fetch(url, {
    method,
    ...(options.timeoutMs ? { signal: AbortSignal.timeout(options.timeoutMs) } : {}),
    headers: { ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...headers },
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // an empty body or text: the test says what it expected
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

/**
 * A tiny client: JSON in, JSON out, the key sent as the bare Authorization header. With `timeoutMs`, a request
 * not answered in time rejects with a `TimeoutError`.
 */
export function apiClient(baseUrl: string, key?: string, options: { timeoutMs?: number } = {}) {
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse> =>
    sendJson(`${baseUrl}${path}`, method, { ...(key !== undefined ? { Authorization: key } : {}), ...headers }, body, options);
  return {
    get: (path: string, headers?: Record<string, string>) => call('GET', path, undefined, headers),
    post: (path: string, body?: unknown, headers?: Record<string, string>) => call('POST', path, body, headers),
    put: (path: string, body?: unknown, headers?: Record<string, string>) => call('PUT', path, body, headers),
    request: call,
  };
}

/** The spec's error envelope with exactly one error of this status and detail. */
export function expectError(response: ApiResponse, status: number, detail?: string | RegExp): void {
  expect({ status: response.status, body: response.body }).toMatchObject({
    status,
    body: { errors: [{ status: String(status) }] },
  });
  const error = response.body.errors[0];
  expect(typeof error.title).toBe('string');
  expect(typeof error.detail).toBe('string');
  if (typeof detail === 'string') expect(error.detail).toBe(detail);
  else if (detail) expect(error.detail).toMatch(detail);
}
