// The reconciler: settles purchases a crash left unsettled. A pending purchase whose code exists on
// the platform is activated, otherwise refunded; a refunded purchase whose code may exist has the
// code deleted. A pending `store_credit` purchase whose credit is found is recorded `used`, otherwise refunded
// (a credit is sent at most once, so none can come later); a store credit undo left in doubt is completed when
// its debit is found, cleared otherwise (./store-credit.ts). Every transition is conditional, so two reconcilers (or a reconciler and a slow
// request) never settle one purchase twice.
import {
  activatePurchase,
  listUnsettledPurchases,
  markCodeCleaned,
  recordPurchaseCredit,
  refundPurchase,
} from '../data/purchase-repository';
import { type PurchaseRecord } from '../domain/history';
import type { ShopCatalog } from '../domain/shop';
import { now as clockNow, nowIso } from '../runtime/clock';
import { countMetric, logger } from '../observability/powertools';
import { reissueCode, settleStoreCreditUndo } from './refund-redemption';
import { type CodePurchase, isCodePurchase } from './discount-code';
import { findOwnCredit } from './store-credit';
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
  /** Store credit undos left in doubt whose debit was found: the refund committed. */
  refundsCompleted: number;
  /** Store credit undos left in doubt whose debit was never made: the entry as before. */
  refundsCleared: number;
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
    refundsCompleted: 0,
    refundsCleared: 0,
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
      const platform = options.platformFor(purchase.shop_id);
      if (isCodePurchase(purchase)) await settle(purchase, platform, summary, shop.tiers);
      else await settleStoreCredit(purchase, platform, summary, shop);
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

/**
 * A `store_credit` purchase left pending: its credit, if one was sent and is found, recorded (`used`, with its
 * `reward.purchased`); else the points back. An undo left in doubt: completed or cleared.
 */
async function settleStoreCredit(
  purchase: PurchaseRecord,
  platform: Platform,
  summary: ReconcileSummary,
  shop: ShopCatalog,
): Promise<void> {
  if (purchase.status === 'pending') {
    const credit = await findOwnCredit(purchase, platform, shop.settings.currency);
    let settled: boolean;
    if (credit) {
      const member = await storedMemberFacts(purchase, shop.tiers);
      const now = nowIso();
      settled = await recordPurchaseCredit(purchase, credit.id, now, member ? [rewardPurchasedEvent(purchase, member, now)] : []);
    } else {
      settled = await refundPurchase(purchase, 'reconciled_without_credit', false, nowIso());
    }
    if (!settled) summary.skipped += 1;
    else if (credit) summary.activated += 1;
    else summary.refunded += 1;
    if (settled) countMetric('PurchasesReconciled');
    if (settled && !credit) countMetric('PurchasesRefunded');
    return;
  }
  if (purchase.status === 'used' && !purchase.is_refunded && purchase.store_credit_debit_sent_at) {
    const outcome = await settleStoreCreditUndo(shop, purchase, platform);
    if (outcome === 'refunded') summary.refundsCompleted += 1;
    else if (outcome === 'cleared') summary.refundsCleared += 1;
    else summary.skipped += 1;
    return;
  }
  summary.skipped += 1;
}

async function settle(purchase: CodePurchase, platform: Platform, summary: ReconcileSummary, tiers: ShopCatalog['tiers']): Promise<void> {
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
