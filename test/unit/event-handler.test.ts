// The event functions' handler factory: the function's own work runs with the logger's Lambda context
// (appended keys cleared per invocation), its metrics are flushed after it, also when it fails, and the
// tracer's middleware is in the chain when detailed tracing is on.
import type { Context } from 'aws-lambda';
import { captured, fakeContext } from '../support/lambda-fakes';

type Work = (event: { n: number }, context: Context) => Promise<unknown>;

describe('eventHandler', () => {
  it("returns the work's result, logs with the invocation's context and clears appended keys per invocation", async () => {
    const { result, logs } = await captured(async () => {
      const { eventHandler } = await import('../../shared/observability/event-handler');
      const { logger } = await import('../../shared/observability/powertools');
      const handler = eventHandler(async (event: { n: number }) => {
        if (event.n === 1) logger.appendKeys({ shop: 'shop-a' });
        logger.info('work done', { n: event.n });
        return { handled: event.n };
      });
      return [await handler({ n: 1 }, fakeContext()), await handler({ n: 2 }, fakeContext())];
    });

    expect(result).toEqual([{ handled: 1 }, { handled: 2 }]);
    expect(logs).toEqual([
      expect.objectContaining({ message: 'work done', n: 1, shop: 'shop-a', function_request_id: 'req-1', function_name: 'fn' }),
      expect.objectContaining({ message: 'work done', n: 2, function_request_id: 'req-1' }),
    ]);
    expect(logs[1]).not.toHaveProperty('shop');
  });

  it('flushes the metrics the work counted, also when it fails, and fails the invocation with its error', async () => {
    const { result, metrics } = await captured(async () => {
      const { eventHandler } = await import('../../shared/observability/event-handler');
      const { countMetric } = await import('../../shared/observability/powertools');
      const work: Work = async (event) => {
        countMetric('PurchasesReconciled', event.n);
        if (event.n === 2) throw new Error('2 purchases could not be settled');
        return 'ok';
      };
      const handler = eventHandler(work);
      const first = await handler({ n: 1 }, fakeContext());
      const second = await handler({ n: 2 }, fakeContext()).catch((error: Error) => error.message);
      return [first, second];
    });

    expect(result).toEqual(['ok', '2 purchases could not be settled']);
    expect(metrics).toEqual([
      expect.objectContaining({ PurchasesReconciled: 1, service: 'loyalty-api' }),
      expect.objectContaining({ PurchasesReconciled: 2 }),
    ]);
  });

  it('publishes nothing for an invocation that counted nothing', async () => {
    const { metrics } = await captured(async () => {
      const { eventHandler } = await import('../../shared/observability/event-handler');
      await eventHandler(async () => undefined)({}, fakeContext());
    });

    expect(metrics).toEqual([]);
  });

  it("puts the tracer's middleware first in the chain", async () => {
    const order: string[] = [];
    await captured(async () => {
      jest.doMock('../../shared/observability/tracing', () => ({
        traceHandler: () => [{ before: async () => void order.push('trace:before'), after: async () => void order.push('trace:after') }],
      }));
      const { eventHandler } = await import('../../shared/observability/event-handler');
      await eventHandler(async () => void order.push('work'))({}, fakeContext());
    });
    jest.dontMock('../../shared/observability/tracing');

    expect(order).toEqual(['trace:before', 'work', 'trace:after']);
  });
});
