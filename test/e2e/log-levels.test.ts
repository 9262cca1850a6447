// What the functions log, through HTTP on the twin: a request refused for the caller's reasons (404, 400,
// 422, a webhook with a bad signature) writes nothing at ERROR; a request we failed (5XX) does, once.
import type { Twin } from '../../infra/local/twin';
import { logger } from '../../shared/observability/powertools';
import { KEYS, e2eConfig } from '../fixtures/e2e-config';
import { postWebhook, signedHeaders } from '../support/orders';
import { apiClient, expectError, startTestTwin, type ApiResponse } from '../support/twin';

type LogLine = { level?: string; message?: string; status?: number; [field: string]: unknown };

let twin: Twin;
let api: ReturnType<typeof apiClient>;

beforeAll(async () => {
  twin = await startTestTwin(e2eConfig(), { throttling: false });
  api = apiClient(twin.url, KEYS.full);
});
afterAll(async () => {
  await twin.stop();
});
afterEach(() => twin.simulator.setFaults({ customers: 'ok', discount_codes: 'ok' }));

/** The Powertools log lines (JSON, level INFO and up) the twin's functions write while `act` runs. */
async function logsOf<T>(act: () => Promise<T>): Promise<{ result: T; lines: LogLine[] }> {
  const chunks: string[] = [];
  const capture = (chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  };
  const level = logger.getLevelName();
  // The test run logs nothing (POWERTOOLS_LOG_LEVEL=SILENT), and each invocation puts the logger back to
  // that level: hold it at INFO while `act` runs.
  const refresh = jest.spyOn(logger, 'refreshSampleRateCalculation').mockImplementation(() => undefined);
  logger.setLogLevel('INFO');
  // Powertools writes INFO to stdout, WARN and ERROR to stderr.
  const out = jest.spyOn(process.stdout, 'write').mockImplementation(capture);
  const err = jest.spyOn(process.stderr, 'write').mockImplementation(capture);
  try {
    const result = await act();
    return {
      result,
      lines: chunks
        .join('')
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as LogLine),
    };
  } finally {
    out.mockRestore();
    err.mockRestore();
    refresh.mockRestore();
    logger.setLogLevel(level);
  }
}

const atError = (lines: LogLine[]) => lines.filter((line) => line.level === 'ERROR');

describe('log levels through the twin', () => {
  it.each<[string, () => Promise<ApiResponse>, number]>([
    ['an unknown customer (404)', () => api.get('/v1/customers/9999'), 404],
    ['a body that is not JSON (400)', () => api.post('/v1/customers/1001/points', '{"adjustment":'), 400],
    ['a purchase without the points (422)', () => api.post('/v1/rewards/five-off/purchase', { customer_identifier: '1002' }), 422],
  ])('%s is logged at INFO, nothing at ERROR', async (_label, request, status) => {
    const { result, lines } = await logsOf(request);

    expectError(result, status);
    expect(atError(lines)).toEqual([]);
    expect(lines).toContainEqual(expect.objectContaining({ level: 'INFO', message: 'Request refused', status }));
  });

  it('a read-only key used to write (403) is logged at WARN, nothing at ERROR', async () => {
    const { result, lines } = await logsOf(() => apiClient(twin.url, KEYS.read).post('/v1/customers/1001/points', { adjustment: 5 }));

    expectError(result, 403);
    expect(atError(lines)).toEqual([]);
    expect(lines).toContainEqual(expect.objectContaining({ level: 'WARN', message: 'Request refused', status: 403 }));
  });

  it('a webhook with a bad signature (401) is logged at WARN, nothing at ERROR', async () => {
    const body = JSON.stringify({ id: 1 });
    const headers = signedHeaders(body, 'not-the-shop-secret', 'e2e.myshopify.com', 'orders/paid');

    const { result, lines } = await logsOf(() => postWebhook(twin, body, headers));

    expect(result.status).toBe(401);
    expect(atError(lines)).toEqual([]);
    expect(lines).toContainEqual(expect.objectContaining({ level: 'WARN', message: 'Webhook refused', reason: 'HMAC does not match' }));
  });

  it('a failed purchase (500, the platform answered an error) is logged at ERROR once', async () => {
    twin.simulator.setFaults({ discount_codes: 'error' });

    const { result, lines } = await logsOf(() => api.post('/v1/rewards/five-off/purchase', { customer_identifier: '1001' }));

    expectError(result, 500, 'Failed to create discount code. Points have not been deducted.');
    expect(atError(lines)).toEqual([
      expect.objectContaining({ message: 'Request failed', status: 500, route: 'POST /v1/rewards/{id}/purchase', shop: 'e2e' }),
    ]);
  });
});
