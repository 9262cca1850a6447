// The reconciler: settles purchases a crash left unsettled. A pending purchase whose code exists on
// the platform is activated, otherwise refunded; a refunded purchase whose code may exist has the
// code deleted. Every transition is conditional, so two reconcilers (or a reconciler and a slow
// request) never settle one purchase twice.
import { activatePurchase, listUnsettledPurchases, markCodeCleaned, refundPurchase } from '../data/purchase-repository';
import { type PurchaseRecord } from '../domain/history';
import type { ShopCatalog } from '../domain/shop';
import { now as clockNow, nowIso } from '../runtime/clock';
import { countMetric, logger } from '../observability/powertools';
import { reissueCode } from './refund-redemption';
import type { Platform } from '../platform/port';
import { isConnected } from '../shops/connected-platform';
import { shopCatalog } from '../shops/shop-catalog';
import { rewardPurchasedEvent, storedMemberFacts } from './purchase-reward';

/** Purchases younger than this may still be in flight in a request; leave them alone. */
export const DEFAULT_SETTLE_AFTER_MS = 2 * 60 * 1000;

export interface ReconcileSummary {
  examined: number;
  activated: number;
  refunded: number;
  codesDeleted: number;
  cleaned: number;
  /** Active entries whose undo did not commit, their code there again (found, or issued again). */
  codesRestored: number;
  /** Left for the next run (platform unreachable, or another writer got there first). */
  skipped: number;
  failed: number;
}

export interface ReconcileOptions {
  platformFor: (shopId: string) => Platform;
  settleAfterMs?: number;
  now?: Date;
}

export async function purchaseReconcilerJob(options: ReconcileOptions): Promise<ReconcileSummary> {
  const now = options.now ?? clockNow();
  const before = new Date(now.getTime() - (options.settleAfterMs ?? DEFAULT_SETTLE_AFTER_MS)).toISOString();
  const purchases = await listUnsettledPurchases(before);
  const summary: ReconcileSummary = {
    examined: purchases.length,
    activated: 0,
    refunded: 0,
    codesDeleted: 0,
    cleaned: 0,
    codesRestored: 0,
    skipped: 0,
    failed: 0,
  };
  for (const purchase of purchases) {
    try {
      // An uninstalled app has no access to the store: the purchase waits, unsettled, for the reconnection.
      const shop = await shopCatalog(purchase.shop_id);
      if (!isConnected(shop)) {
        summary.skipped += 1;
        continue;
      }
      await settle(purchase, options.platformFor(purchase.shop_id), summary, shop.tiers);
    } catch (error) {
      summary.failed += 1;
      logger.error('Purchase not settled', { purchaseId: purchase.id, shop: purchase.shop_id, error: error as Error });
    }
  }
  return summary;
}

/** A purchase whose code exists activated, its `reward.purchased` committed with it (the member as stored now). */
async function activateWithEvent(purchase: PurchaseRecord, discountId: string, tiers: ShopCatalog['tiers']): Promise<boolean> {
  const member = await storedMemberFacts(purchase, tiers);
  const now = nowIso();
  return activatePurchase(purchase, discountId, now, member ? [rewardPurchasedEvent(purchase, member, now)] : []);
}

async function settle(purchase: PurchaseRecord, platform: Platform, summary: ReconcileSummary, tiers: ShopCatalog['tiers']): Promise<void> {
  const existing = await platform.findDiscountCode(purchase.discount_code);
  if (purchase.status === 'pending') {
    const settled = existing
      ? await activateWithEvent(purchase, existing.id, tiers)
      : await refundPurchase(purchase, 'reconciled_without_code', false, nowIso());
    if (!settled) summary.skipped += 1;
    else if (existing) summary.activated += 1;
    else summary.refunded += 1;
    if (settled) countMetric('PurchasesReconciled');
    if (settled && !existing) countMetric('PurchasesRefunded');
    return;
  }
  if (purchase.status === 'active' && !purchase.is_refunded && purchase.refund_started_at) {
    // An undo that started and did not commit: the code is issued again if the undo deleted it.
    if (await reissueCode(purchase.shop_id, purchase.customer_id, purchase, platform, true)) summary.codesRestored += 1;
    else summary.skipped += 1;
    return;
  }
  if (purchase.status === 'refunded' && purchase.code_cleanup) {
    if (existing) {
      await platform.deleteDiscountCode(existing.id);
      summary.codesDeleted += 1;
    }
    if (await markCodeCleaned(purchase, nowIso())) summary.cleaned += 1;
    else summary.skipped += 1;
  }
}
