// Order reconciliation: per shop, the orders the platform changed since the watermark go through the same
// applyOrder as webhooks, so a missed delivery is caught up and one already applied changes nothing. Each page's
// stored order items are read in one batch first, and an order its item already reflects is left alone (no
// read of the member), so a run's DynamoDB work follows the orders it has to apply, not every order changed
// in its window. The watermark is clock time, set only here, to the run's start once the shop's pages were all read.
import { readStoredOrders } from '../data/order-repository';
import { listShopIds, readOrderWatermark, writeOrderWatermark } from '../data/shop-repository';
import { logger } from '../observability/powertools';
import type { Platform } from '../platform/port';
import { now } from '../runtime/clock';
import { isConnected } from '../shops/connected-platform';
import { shopCatalog } from '../shops/shop-catalog';
import { alreadyApplied, type OrderRecord } from './apply-order';
import { applyOrderEnrolling } from './apply-order-enrolling';

const DAY_MS = 24 * 60 * 60 * 1000;
const FIRST_RUN_LOOKBACK_MS = DAY_MS;
/** How far back Shopify lets an app without `read_all_orders` read orders. */
export const ORDER_HISTORY_DAYS = 60;

/**
 * Where this run starts reading: the watermark (or a day back on a first run), but never before what the
 * app can see. Orders changed in the part it cannot see (a shop disconnected for months) are not read: the
 * caller logs that window.
 */
export function reconcileFrom(watermark: string | null, start: Date, readAllOrders: boolean): { since: string; unreadable: string | null } {
  const since = watermark ?? new Date(start.getTime() - FIRST_RUN_LOOKBACK_MS).toISOString();
  if (readAllOrders) return { since, unreadable: null };
  const horizon = new Date(start.getTime() - ORDER_HISTORY_DAYS * DAY_MS).toISOString();
  return Date.parse(since) < Date.parse(horizon) ? { since: horizon, unreadable: since } : { since, unreadable: null };
}

export interface OrderReconcileSummary {
  shops: number;
  orders: number;
  /** Orders whose stored item already reflected the platform's state: left alone, nothing read for them. */
  current: number;
  applied: number;
  /** Shops whose platform or table failed this run; their watermark stays where it was. */
  failed: number;
  /** Shops passed by because the app was uninstalled from them (no token asked for). */
  disconnected: number;
  /** True when the run stopped at its time budget with orders left (the next run goes on from the last one done). */
  more: boolean;
}

export interface OrderReconcileOptions {
  platformFor: (shopId: string) => Platform;
  /** Real milliseconds the run may take (Lambda's timeout keeps real time); unbounded when absent. */
  budgetMs?: number;
  /** Stop once this many orders were read (a run stopped half-way, as a spent budget stops it). */
  maxOrders?: number;
}

/**
 * One run over every shop. Orders come oldest change first; a run that reaches its budget stops after the order
 * in hand and sets the shop's watermark to the last order it finished (read again, current, by the next run,
 * which goes on from there), so a backlog longer than one run is worked through run by run instead of being
 * read again from the same watermark until a run fits.
 */
export async function orderReconciliationJob({ platformFor, budgetMs, maxOrders }: OrderReconcileOptions): Promise<OrderReconcileSummary> {
  const start = now();
  const startedMs = Date.now();
  const spent = () => Date.now() - startedMs > (budgetMs ?? Infinity) || summary.orders >= (maxOrders ?? Infinity);
  const summary: OrderReconcileSummary = { shops: 0, orders: 0, current: 0, applied: 0, failed: 0, disconnected: 0, more: false };
  for (const shopId of await listShopIds()) {
    if (spent()) {
      summary.more = true;
      break;
    }
    summary.shops += 1;
    try {
      const shop = await shopCatalog(shopId);
      // The watermark stays: once reconnected, the orders missed meanwhile are read from where it stopped.
      if (!isConnected(shop)) {
        summary.disconnected += 1;
        continue;
      }
      const { since, unreadable } = reconcileFrom(await readOrderWatermark(shopId), start, shop.settings.read_all_orders === true);
      if (unreadable) {
        logger.warn('Orders changed before the app can see were not reconciled', {
          shop: shopId,
          from: unreadable,
          to: since,
          hint: 'Shopify shows 60 days of orders without read_all_orders; refunds in that window were not taken back',
        });
      }
      const platform = platformFor(shopId);
      let cursor: string | null = null;
      // The last change this run finished in this shop, and whether orders were left when the budget ran out.
      let finished: string | null = null;
      let left = false;
      do {
        const page = await platform.listOrdersUpdatedSince(since, cursor);
        const stored = await readStoredOrders<OrderRecord>(
          shopId,
          page.orders.flatMap((order) => (order.customerId === null ? [] : [{ customerId: order.customerId, orderId: order.id }])),
        );
        for (const order of page.orders) {
          // At least one order per run, so a run always moves the watermark on.
          if (finished !== null && spent()) {
            left = true;
            break;
          }
          summary.orders += 1;
          const record = stored.get(order.id);
          if (record && record.customer_id === order.customerId && alreadyApplied(record, order)) summary.current += 1;
          else if ((await applyOrderEnrolling(shop, order, platform)) === 'applied') summary.applied += 1;
          finished = order.updatedAt;
        }
        cursor = page.nextCursor;
        if (cursor && finished !== null && spent()) left = true;
      } while (cursor && !left);
      // Orders left: the next run starts from the last one finished (orders come in change order, so never
      // before `since`); all read: from this run's start.
      await writeOrderWatermark(shopId, left ? finished! : start.toISOString());
      summary.more ||= left;
    } catch (error) {
      summary.failed += 1;
      logger.error('Order reconciliation failed for a shop', { shop: shopId, error: error as Error });
    }
  }
  return summary;
}
