// What the extension's screens need of POS, as an interface: src/host.ts gives POS's own (the `shopify` global),
// the tests and the twin's POS page give theirs through the same global (infra/local/simulator/simulated-pos.ts).
import type { StaffApi } from './staff-api';

export type Translate = (key: string, replacements?: Record<string, string | number>) => string;

export interface PosHost {
  api: StaffApi;
  t: Translate;
  number(value: number): string;
  money(value: number, currency: string): string;
  /** The customer whose details screen the target is on (customer details targets), else null. */
  viewedCustomerId(): string | null;
  cart: {
    /** The customer attached to the POS cart, or null. */
    customerId(): string | null;
    /** The codes of the cart's code discounts. */
    codes(): string[];
    /** Calls `listener` on every change of the cart; answers the unsubscribe. */
    subscribe(listener: () => void): () => void;
    addCode(code: string): Promise<void>;
    removeCode(code: string): Promise<void>;
  };
  presentModal(): void;
  toast(message: string): void;
}
