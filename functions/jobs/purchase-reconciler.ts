// Scheduled every few minutes: settles purchases left pending by a crash (see shared/purchases/purchase-reconciler.ts).
import { eventHandler } from '../../shared/observability/event-handler';
import { logger } from '../../shared/observability/powertools';
import { platformForShop } from '../../shared/platform/platform-for-shop';
import { purchaseReconcilerJob, type ReconcileSummary } from '../../shared/purchases/purchase-reconciler';

export const handler = eventHandler(async (): Promise<ReconcileSummary> => {
  const summary = await run();
  logger.info('Reconciler run', { ...summary });
  // A failed settlement must show up as a failed invocation, so the alarm on reconciler errors fires.
  if (summary.failed > 0) throw new Error(`${summary.failed} purchases could not be settled`);
  return summary;
});

/** One run: the handler's, and the twin's POST /_jobs/run. */
export function run() {
  return purchaseReconcilerJob({ platformFor: platformForShop });
}
