// Scheduled: catches up orders whose webhooks were missed (see shared/orders/order-reconciliation.ts).
import { eventHandler } from '../../shared/observability/event-handler';
import { logger } from '../../shared/observability/powertools';
import { platformForShop } from '../../shared/platform/platform-for-shop';
import { orderReconciliationJob, type OrderReconcileSummary } from '../../shared/orders/order-reconciliation';

export const handler = eventHandler(async (): Promise<OrderReconcileSummary> => {
  const summary = await run();
  logger.info('Order reconciliation run', { ...summary });
  // A shop that could not be reconciled must show as a failed invocation, so the job's error alarm fires.
  if (summary.failed > 0) throw new Error(`${summary.failed} shops could not be reconciled`);
  return summary;
});

/** One run: the handler's, and the twin's POST /_jobs/run. */
export function run() {
  return orderReconciliationJob({ platformFor: platformForShop });
}
