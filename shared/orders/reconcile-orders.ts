// Order reconciliation: per shop, the orders the platform changed since the watermark go through the same
// applyOrder as webhooks, so a missed delivery is caught up and one already applied changes nothing. The
// watermark is clock time, set only here, to the run's start once the shop's pages were all read.
import { listShopIds, readOrderWatermark, writeOrderWatermark } from '../data/shop-repository';
import { logger } from '../observability/powertools';
import type { Platform } from '../platform/port';
import { now } from '../runtime/clock';
import { shopCatalog } from '../shops/shop-catalog';
import { applyOrder } from './apply-order';

const FIRST_RUN_LOOKBACK_MS = 24 * 60 * 60 * 1000;

export interface OrderReconcileSummary {
  shops: number;
  orders: number;
  applied: number;
  /** Shops whose platform or table failed this run; their watermark stays where it was. */
  failed: number;
}

export async function reconcileOrders({ platformFor }: { platformFor: (shopId: string) => Platform }): Promise<OrderReconcileSummary> {
  const start = now();
  const summary: OrderReconcileSummary = { shops: 0, orders: 0, applied: 0, failed: 0 };
  for (const shopId of await listShopIds()) {
    summary.shops += 1;
    try {
      const since = (await readOrderWatermark(shopId)) ?? new Date(start.getTime() - FIRST_RUN_LOOKBACK_MS).toISOString();
      const shop = await shopCatalog(shopId);
      const platform = platformFor(shopId);
      let cursor: string | null = null;
      do {
        const page = await platform.listOrdersUpdatedSince(since, cursor);
        for (const order of page.orders) {
          summary.orders += 1;
          if ((await applyOrder(shop, order)) === 'applied') summary.applied += 1;
        }
        cursor = page.nextCursor;
      } while (cursor);
      await writeOrderWatermark(shopId, start.toISOString());
    } catch (error) {
      summary.failed += 1;
      logger.error('Order reconciliation failed for a shop', { shop: shopId, error: error as Error });
    }
  }
  return summary;
}
