// Discount codes derived from the purchase id: unguessable (the id is a random UUID, hashed) and
// deterministic, so a retried create, or the reconciler, can look the very same code up.
import { deterministicId } from '../domain/deterministic-id';
import type { PurchaseRecord } from '../domain/history';
import type { DiscountCodeInput } from '../platform/port';

const LENGTH = 12;

export function discountCodeFor(purchaseId: string): string {
  return deterministicId({ text: `loyalty-purchase:${purchaseId}` }, { as: 'code', prefix: 'LOYAL', length: LENGTH });
}

/** What the platform is asked to create for a purchase's code: its code, value, customer and dates. */
export function discountCodeInputOf(purchase: PurchaseRecord, customerId: string = purchase.customer_id): DiscountCodeInput {
  return {
    code: purchase.discount_code,
    title: `Loyalty reward: ${purchase.reward_name}`,
    customerId,
    discountType: purchase.discount.type,
    amount: purchase.discount.value,
    minimumSpend: purchase.discount.minimum_spend,
    startsAt: purchase.created_at,
    endsAt: purchase.expires_at,
  };
}
