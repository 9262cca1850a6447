// Discount codes derived from the purchase id: unguessable (the id is a random UUID, hashed) and
// deterministic, so a retried create, or the reconciler, can look the very same code up.
import { deterministicId } from '../domain/deterministic-id';

const LENGTH = 12;

export function discountCodeFor(purchaseId: string): string {
  return deterministicId({ text: `loyalty-purchase:${purchaseId}` }, { as: 'code', prefix: 'LOYAL', length: LENGTH });
}
