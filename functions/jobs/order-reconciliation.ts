// Scheduled: catches up orders whose webhooks were missed (see shared/orders/order-reconciliation.ts).
import { eventHandler } from '../../shared/observability/event-handler';
import { logger } from '../../shared/observability/powertools';
import { platformForShop } from '../../shared/platform/platform-for-shop';
import { orderReconciliationJob, type OrderReconcileSummary } from '../../shared/orders/order-reconciliation';

/** Real time kept free for the order in hand, the watermark's write and the log before Lambda's timeout. */
const SAFETY_MS = 30_000;

export const handler = eventHandler(
  async (_event: unknown, context: { getRemainingTimeInMillis(): number }): Promise<OrderReconcileSummary> => {
    const summary = await run({ budgetMs: Math.max(1_000, context.getRemainingTimeInMillis() - SAFETY_MS) });
    logger.info('Order reconciliation run', { ...summary });
    // A shop that could not be reconciled must show as a failed invocation, so the job's error alarm fires.
    if (summary.failed > 0) throw new Error(`${summary.failed} shops could not be reconciled`);
    return summary;
  },
);

/** One run: the handler's (within its time budget), and the twin's POST /_jobs/run (to the end). */
export function run(options: { budgetMs?: number; maxOrders?: number } = {}) {
  return orderReconciliationJob({ platformFor: platformForShop, ...options });
}
