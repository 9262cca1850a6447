// What the handlers write to CloudWatch: structured logs with shop and route but no key, EMF metrics.
import { loggableIdentifier, maskEmail } from '../../shared/observability/powertools';
import { setEnvironment } from '../support/environment';
import { fakeContext, fakeEvent } from '../support/lambda-fakes';

const context = fakeContext();
const event = fakeEvent();

function captureOutput(): { lines: () => string[]; restore: () => void } {
  const chunks: string[] = [];
  const capture = (chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  };
  // Powertools writes INFO to stdout and ERROR to stderr.
  const out = jest.spyOn(process.stdout, 'write').mockImplementation(capture);
  const err = jest.spyOn(process.stderr, 'write').mockImplementation(capture);
  return { lines: () => chunks.join('').split('\n').filter(Boolean), restore: () => (out.mockRestore(), err.mockRestore()) };
}

describe('observability', () => {
  it('masks e-mails in anything it logs about a customer', () => {
    expect(maskEmail('ada.lovelace@example.com')).toBe('a***@example.com');
    expect(maskEmail('nonsense')).toBe('***');
    expect(loggableIdentifier('1001')).toBe('1001');
    expect(loggableIdentifier('grace@navy.mil')).toBe('g***@navy.mil');
  });

  it('logs an unexpected error with request id, shop and route, never the key, and answers a bare 500', async () => {
    const restoreEnvironment = setEnvironment({ POWERTOOLS_LOG_LEVEL: 'INFO' });
    const output = captureOutput();
    let response: { statusCode: number; body: string } | undefined;
    await jest.isolateModulesAsync(async () => {
      const { createHandler } = await import('../../shared/http/handler');
      const handler = createHandler(async () => {
        throw new Error('connect ECONNREFUSED 10.1.2.3:443');
      });
      response = (await handler(event, context)) as typeof response;
    });
    output.restore();
    restoreEnvironment();

    expect(response!.statusCode).toBe(500);
    expect(response!.body).not.toContain('ECONNREFUSED');
    const logged = output
      .lines()
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const error = logged.find((line) => line.message === 'Unhandled error');
    expect(error).toMatchObject({
      level: 'ERROR',
      shop: 'shop-a',
      route: 'GET /v1/customers/{identifier}',
      keyId: 'abcd1234',
      customer: 'a***@example.com',
      function_request_id: 'req-1',
    });
    expect(JSON.stringify(logged)).not.toContain('super_secret_key_123');
    expect(JSON.stringify(logged)).not.toContain('lovelace');
  });

  it('publishes business metrics in CloudWatch embedded metric format at the end of the request', async () => {
    const restoreEnvironment = setEnvironment({ POWERTOOLS_METRICS_DISABLED: 'false' });
    const output = captureOutput();
    await jest.isolateModulesAsync(async () => {
      const { createHandler } = await import('../../shared/http/handler');
      const { countMetric } = await import('../../shared/observability/powertools');
      const handler = createHandler(async () => {
        countMetric('PointsAdjusted');
        return { statusCode: 200, body: {} };
      });
      await handler(event, context);
    });
    output.restore();
    restoreEnvironment();

    const emf = output
      .lines()
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((line) => '_aws' in line);
    expect(emf).toMatchObject({ PointsAdjusted: 1, service: 'loyalty-api' });
    expect(JSON.stringify(emf)).toContain('"Namespace":"LoyaltyApi"');
  });

  describe('detailed tracing', () => {
    let restoreEnvironment = () => {};
    afterEach(() => restoreEnvironment());

    it.each([
      ['unset', undefined],
      ['false', 'false'],
    ])('does not load the Tracer or the X-Ray SDK when POWERTOOLS_TRACE_ENABLED is %s', async (_label, value) => {
      restoreEnvironment = setEnvironment({ POWERTOOLS_TRACE_ENABLED: value });
      const tracerLoaded = jest.fn();
      await jest.isolateModulesAsync(async () => {
        jest.doMock('@aws-lambda-powertools/tracer', () => (tracerLoaded(), jest.requireActual('@aws-lambda-powertools/tracer')));
        const tracing = await import('../../shared/observability/tracing');
        const { createHandler } = await import('../../shared/http/handler');
        const response = await createHandler(async () => ({ statusCode: 200, body: { ok: true } }))(event, context);
        expect(response.statusCode).toBe(200);
        expect(tracing.tracer).toBeUndefined();
        const client = { send: jest.fn() };
        expect(tracing.traceAwsClient(client)).toBe(client);
      });
      expect(tracerLoaded).not.toHaveBeenCalled();
    });

    it("loads the Tracer, wraps the handler and captures AWS clients when POWERTOOLS_TRACE_ENABLED is 'true'", async () => {
      restoreEnvironment = setEnvironment({ POWERTOOLS_TRACE_ENABLED: 'true' });
      await jest.isolateModulesAsync(async () => {
        const tracing = await import('../../shared/observability/tracing');
        expect(tracing.tracer).toBeDefined();
        const capture = jest.spyOn(tracing.tracer!, 'captureAWSv3Client').mockImplementation((client) => client);
        const client = { send: jest.fn() };
        tracing.traceAwsClient(client);
        expect(capture).toHaveBeenCalledWith(client);
        const middlewares = tracing.traceHandler();
        expect(middlewares).toHaveLength(1);
        expect(typeof middlewares[0]!.before).toBe('function');
        expect(typeof middlewares[0]!.after).toBe('function');
        const { createHandler } = await import('../../shared/http/handler');
        const response = await createHandler(async () => ({ statusCode: 200, body: { ok: true } }))(event, context);
        expect(response.statusCode).toBe(200);
      });
    });
  });
});
