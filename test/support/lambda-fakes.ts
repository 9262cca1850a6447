// What the middleware and logging tests share: fake API Gateway events and Lambda contexts, and a run of code on a
// fresh module registry (a fresh logger and metrics) with Powertools' output captured as JSON lines.
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { setEnvironment } from './environment';

export type LogLine = Record<string, unknown> & { level?: string; message?: string };

export const fakeContext = (remainingMs = 1000): Context =>
  ({ awsRequestId: 'req-1', functionName: 'fn', getRemainingTimeInMillis: () => remainingMs }) as unknown as Context;

export function fakeEvent(overrides: Partial<APIGatewayProxyEvent> = {}): APIGatewayProxyEvent {
  return {
    httpMethod: 'GET',
    resource: '/v1/customers/{identifier}',
    path: '/v1/customers/ada.lovelace%40example.com',
    headers: { Authorization: 'super_secret_key_123' },
    pathParameters: { identifier: 'ada.lovelace%40example.com' },
    body: null,
    requestContext: { authorizer: { shopId: 'shop-a', scope: 'full', keyId: 'abcd1234' } },
    ...overrides,
  } as unknown as APIGatewayProxyEvent;
}

/** The same event sent with a key of the other scope, or without the authorizer's context. */
export const withAuthorizer = (event: APIGatewayProxyEvent, authorizer: Record<string, unknown> | undefined): APIGatewayProxyEvent =>
  ({ ...event, requestContext: authorizer === undefined ? {} : { authorizer } }) as unknown as APIGatewayProxyEvent;

/**
 * Runs `work` on a fresh module registry with Powertools logging at INFO and metrics on, and returns its
 * result with the log lines and the EMF metric records written meanwhile.
 */
export async function captured<T>(work: () => Promise<T>): Promise<{ result: T; logs: LogLine[]; metrics: LogLine[] }> {
  const chunks: string[] = [];
  const capture = (chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  };
  const restoreEnvironment = setEnvironment({ POWERTOOLS_LOG_LEVEL: 'INFO', POWERTOOLS_METRICS_DISABLED: 'false' });
  // Powertools writes INFO to stdout, WARN and ERROR to stderr.
  const out = jest.spyOn(process.stdout, 'write').mockImplementation(capture);
  const err = jest.spyOn(process.stderr, 'write').mockImplementation(capture);
  let result: T;
  try {
    await jest.isolateModulesAsync(async () => {
      result = await work();
    });
  } finally {
    out.mockRestore();
    err.mockRestore();
    restoreEnvironment();
  }
  const lines = chunks
    .join('')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
  return { result: result!, logs: lines.filter((line) => !('_aws' in line)), metrics: lines.filter((line) => '_aws' in line) };
}
