// Order reconciliation: per shop, the orders the platform changed since the watermark go through the same
// applyOrder as webhooks, so a missed delivery is caught up and one already applied changes nothing. The
// watermark is clock time, set only here, to the run's start once the shop's pages were all read.
import { listShopIds, readOrderWatermark, writeOrderWatermark } from '../data/shop-repository';
import { logger } from '../observability/powertools';
import type { Platform } from '../platform/port';
import { now } from '../runtime/clock';
import { isConnected } from '../shops/connected-platform';
import { shopCatalog } from '../shops/shop-catalog';
import { applyOrderEnrolling } from './apply-order-enrolling';

const FIRST_RUN_LOOKBACK_MS = 24 * 60 * 60 * 1000;

export interface OrderReconcileSummary {
  shops: number;
  orders: number;
  applied: number;
  /** Shops whose platform or table failed this run; their watermark stays where it was. */
  failed: number;
  /** Shops passed by because the app was uninstalled from them (no token asked for). */
  disconnected: number;
}

export async function reconcileOrders({ platformFor }: { platformFor: (shopId: string) => Platform }): Promise<OrderReconcileSummary> {
  const start = now();
  const summary: OrderReconcileSummary = { shops: 0, orders: 0, applied: 0, failed: 0, disconnected: 0 };
  for (const shopId of await listShopIds()) {
    summary.shops += 1;
    try {
      const shop = await shopCatalog(shopId);
      // The watermark stays: once reconnected, the orders missed meanwhile are read from where it stopped.
      if (!isConnected(shop)) {
        summary.disconnected += 1;
        continue;
      }
      const since = (await readOrderWatermark(shopId)) ?? new Date(start.getTime() - FIRST_RUN_LOOKBACK_MS).toISOString();
      const platform = platformFor(shopId);
      let cursor: string | null = null;
      do {
        const page = await platform.listOrdersUpdatedSince(since, cursor);
        for (const order of page.orders) {
          summary.orders += 1;
          if ((await applyOrderEnrolling(shop, order, platform)) === 'applied') summary.applied += 1;
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
