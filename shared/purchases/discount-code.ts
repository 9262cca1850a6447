// Discount codes derived from the purchase id: unguessable (the id is a random UUID, hashed) and
// deterministic, so a retried create, or the reconciler, can look the very same code up.
import { createHash } from 'node:crypto';

const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const LENGTH = 12;

export function discountCodeFor(purchaseId: string): string {
  const digest = createHash('sha256').update(`loyalty-purchase:${purchaseId}`).digest();
  let code = '';
  for (let i = 0; i < LENGTH; i += 1) code += ALPHABET[digest[i]! % ALPHABET.length];
  return `LOYAL-${code.slice(0, 4)}-${code.slice(4, 8)}-${code.slice(8)}`;
}
