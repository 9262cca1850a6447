// The purchase form of reward_history_entry: only the fields the spec lists for it.
import type { PurchaseRecord } from '../domain/history';
import { formatMinorUnits } from '../domain/money';
import type { ShopSettings } from '../domain/shop';
import { storeCreditTransactionOf } from '../history/history-resource';

export function purchaseResource(purchase: PurchaseRecord, settings: ShopSettings) {
  return {
    type: 'reward_history_entry',
    id: purchase.id,
    attributes: {
      reward_id: purchase.reward_id,
      reward_name: purchase.reward_name,
      reward_discount_type: purchase.reward_discount_type,
      points_spent: purchase.points_spent,
      loyalty_mode: settings.loyalty_mode,
      currency: settings.currency,
      ...(settings.loyalty_mode === 'store_credit' ? { credit_spent: formatMinorUnits(purchase.points_spent, settings.currency) } : {}),
      discount_code: purchase.discount_code,
      status: purchase.status,
      expires_at: purchase.expires_at,
      ...storeCreditTransactionOf(purchase),
    },
  };
}
