// Scheduled: catches up orders whose webhooks were missed (see shared/orders/reconcile-orders.ts).
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logger, publishMetrics } from '../../shared/observability/powertools';
import { traceHandler } from '../../shared/observability/tracing';
import { platformForShop } from '../../shared/platform/platform-for-shop';
import { reconcileOrders, type OrderReconcileSummary } from '../../shared/orders/reconcile-orders';

export const handler = middy(async (): Promise<OrderReconcileSummary> => {
  const summary = await run();
  logger.info('Order reconciliation run', { ...summary });
  // A shop that could not be reconciled must show as a failed invocation, so the job's error alarm fires.
  if (summary.failed > 0) throw new Error(`${summary.failed} shops could not be reconciled`);
  return summary;
})
  .use(traceHandler())
  .use(injectLambdaContext(logger, { clearState: true }))
  .use(publishMetrics());

/** One run: the handler's, and the twin's POST /_jobs/run. */
export function run() {
  return reconcileOrders({ platformFor: platformForShop });
}
