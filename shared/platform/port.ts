// The commerce platform port: what the loyalty domain needs from Shopify (or the local simulator).
import type { RewardKind } from '../domain/shop';

/** The reward kinds that give a discount code (all but `store_credit`). */
export type CodeKind = Exclude<RewardKind, 'store_credit'>;

export interface PlatformCustomer {
  /** Numeric platform customer id, e.g. "1001". */
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  /** ISO 8601 timestamp of the platform account's creation, or null when unknown. */
  createdAt: string | null;
}

export interface DiscountCodeInput {
  /** The code a shopper types at checkout; deterministic per purchase so a retried create can find it. */
  code: string;
  title: string;
  /** The one customer who may use the code; null: any buyer (a referred friend's code, usable once). */
  customerId: string | null;
  /**
   * `fixed`: amount in major currency units; `percentage`: 0-100; `free_shipping`: the highest shipping price
   * it covers (0: any); `free_product`: the variant's price, taken off one unit of it.
   */
  discountType: CodeKind;
  amount: number;
  /** `free_product`: the numeric id of the one product variant the code applies to. */
  productVariantId?: string | null;
  /** Minimum subtotal in major currency units; 0 for none. */
  minimumSpend: number;
  startsAt: string;
  /** ISO timestamp or null for no expiry. */
  endsAt: string | null;
}

export interface DiscountCode {
  /** Platform id of the discount (e.g. gid://shopify/DiscountCodeNode/1). */
  id: string;
  code: string;
}

/** A credit to a customer's store credit account in one currency (the account is made on the first credit). */
export interface StoreCreditInput {
  customerId: string;
  /** In major units of `currency`, more than 0. */
  amount: number;
  currency: string;
  /** ISO timestamp when the credit expires, or null for never. */
  expiresAt: string | null;
}

/** A debit from a customer's store credit account in one currency. */
export interface StoreCreditDebitInput {
  customerId: string;
  amount: number;
  currency: string;
}

/** One transaction of a store credit account, as the platform lists it. */
export interface StoreCreditTransaction {
  /** Platform id, e.g. gid://shopify/StoreCreditAccountCreditTransaction/1. */
  id: string;
  kind: 'credit' | 'debit' | 'other';
  /** Decimal string in major units, negative for a debit: "5.00", "-5.00". */
  amount: string;
  currency: string;
  createdAt: string;
  expiresAt: string | null;
}

export interface NoteAttribute {
  name: string;
  value: string;
}

/**
 * An order as the earning engine sees it, whichever way it arrived: a webhook's REST payload
 * (orderFromWebhook) or the Admin GraphQL `orders` query (listOrdersUpdatedSince) give the same shape.
 * Amounts are decimal strings in the shop's currency, timestamps ISO 8601 in UTC.
 */
export interface PlatformOrder {
  /** Numeric order id, e.g. "5001", exact whatever its size. */
  id: string;
  /** What the shop and the customer call the order, e.g. "#1001". */
  name: string;
  /** Numeric customer id, or null for a guest checkout. */
  customerId: string | null;
  /**
   * The eligible amount before refunds (SHOPIFY-CONTRACT.md, "What an order earns"): the subtotal after
   * discounts, less its line taxes when the prices include tax, less gift-card lines (eligible-amount.ts).
   */
  eligibleSubtotal: string;
  /** How much of `eligibleSubtotal` refunds took back, on the same basis; "0.00" when none. */
  refundedEligible: string;
  /**
   * Each refund the order lists, known by its id, with what it takes of the eligible amount (its lines less
   * its refund discrepancies, never below zero); null when the source gave no refund list.
   */
  refunds: PlatformOrderRefund[] | null;
  /** The shop's prices include tax: a refund's line tax is then part of its subtotal and is taken out. */
  taxesIncluded: boolean;
  /** ISO 4217 code of the shop's currency, in which every amount above is given. */
  currency: string;
  /** When the order was placed and processed (`processed_at`, else `created_at`). */
  processedAt: string;
  /** Last change of the order; a newer state of an order always has a later or equal updatedAt. */
  updatedAt: string;
  cancelledAt: string | null;
  discountCodes: string[];
  /** The page (path and query) the buyer landed on, e.g. "/?ref=CODE", or null when unknown. */
  landingSite: string | null;
  /** The referral code Shopify recorded for the visit (REST `landing_site_ref`, GraphQL `referralCode`). */
  referralCode: string | null;
  noteAttributes: NoteAttribute[];
  /** Lower-case financial status as the REST API writes it: paid, partially_refunded, refunded, pending... */
  financialStatus: string | null;
  /** A test order (Bogus Gateway, test mode): it earns only where the shop counts test orders. */
  test: boolean;
  /**
   * The channel the order was placed through, as Shopify names it (`source_name`: `web`, `pos`, `shopify_draft_order`,
   * an app's id...); null or absent when the source gave none. It earns the same whatever it is; staff read it in the history.
   */
  sourceName?: string | null;
}

/** A refunded line: its subtotal after discounts and the tax refunded with it. */
export interface PlatformRefundLine {
  giftCard: boolean;
  subtotal: string;
  tax: string;
}

/** A refund an order lists: its id and what it takes of the order's eligible amount (a decimal string). */
export interface PlatformOrderRefund {
  id: string;
  taken: string;
}

/** A refund as `refunds/create` reports it: which of the order's lines went back, and how far the money differed. */
export interface PlatformRefund {
  id: string;
  orderId: string;
  /** The refunded line items; shipping refunds are not among them. */
  lines: PlatformRefundLine[];
  /**
   * The amounts of its `refund_discrepancy` order adjustments: the lines' value minus the money refunded
   * (`-5.85` when 5.85 went back without a line). `shipping_refund` adjustments are left out.
   */
  discrepancies: string[];
  createdAt: string;
}

/** One page of changed orders, oldest change first. */
export interface OrderPage {
  orders: PlatformOrder[];
  /** Pass back to read the next page; null when this page was the last. */
  nextCursor: string | null;
}

export interface Platform {
  /** Resolves a customer, or null when the platform has no customer with that id. */
  getCustomer(customerId: string): Promise<PlatformCustomer | null>;
  /** Creates a single-use code (limited to one customer, or for any buyer); returns the existing one if the code already exists. */
  createDiscountCode(input: DiscountCodeInput): Promise<DiscountCode>;
  /** Finds a discount code by its code, or null. */
  findDiscountCode(code: string): Promise<DiscountCode | null>;
  /** Deletes a discount code by its platform id. */
  deleteDiscountCode(id: string): Promise<void>;
  /**
   * Credits a customer's store credit account: sent once, never retried after an attempt that may have reached
   * the platform (no idempotency key exists for it). A StoreCreditRefusedError means nothing was done; any other
   * failure leaves it unknown whether the credit was made (look with listStoreCreditTransactions).
   */
  creditStoreCredit(input: StoreCreditInput): Promise<StoreCreditTransaction>;
  /** Debits a customer's store credit account, sent once as a credit is; StoreCreditRefusedError: nothing was done. */
  debitStoreCredit(input: StoreCreditDebitInput): Promise<StoreCreditTransaction>;
  /** The latest transactions of the customer's store credit account in `currency`, newest first; [] without one. */
  listStoreCreditTransactions(customerId: string, currency: string): Promise<StoreCreditTransaction[]>;
  /**
   * One page of the orders updated at or after `since` (ISO 8601), ordered by update time. Inclusive,
   * because the platform keeps whole seconds: an order changed in the watermark's second is read again
   * rather than missed, and processing an order twice changes nothing.
   */
  listOrdersUpdatedSince(since: string, cursor?: string | null): Promise<OrderPage>;
}

/** The platform answered, but with an error (GraphQL errors or userErrors that retrying will not fix). */
export class PlatformError extends Error {
  /**
   * An earlier attempt of the same request timed out or lost its connection before this answer, so
   * it may have been applied anyway (a discount code created): the platform's "no" is then not final.
   */
  readonly earlierAttemptMayHaveApplied: boolean;

  constructor(message: string, options: { earlierAttemptMayHaveApplied?: boolean } = {}) {
    super(message);
    this.name = 'PlatformError';
    this.earlierAttemptMayHaveApplied = options.earlierAttemptMayHaveApplied ?? false;
  }
}

/**
 * The store or Shopify refuses this app, which no retry will change: the access was not granted
 * (ACCESS_DENIED, or HTTP 403: a scope or protected customer data the store has not approved), or the
 * app's credentials were refused (a wrong client id or secret, a revoked token). An operator must act;
 * `callerDetail` says what is missing in words an API caller may be shown (no secret in it).
 */
export class PlatformRefusedError extends PlatformError {
  readonly reason: 'access_denied' | 'credentials';
  readonly callerDetail: string;

  constructor(reason: 'access_denied' | 'credentials', message: string, callerDetail: string) {
    super(message);
    this.name = 'PlatformRefusedError';
    this.reason = reason;
    this.callerDetail = callerDetail;
  }
}

/**
 * The platform refused a store credit credit or debit with a user error: nothing was done. `code` is Shopify's
 * (INSUFFICIENT_FUNDS: the account holds less than the debit; ACCOUNT_NOT_FOUND: the customer has no account in
 * that currency; OWNER_NOT_FOUND ...).
 */
export class StoreCreditRefusedError extends PlatformError {
  readonly code: string | null;

  constructor(message: string, code: string | null) {
    super(message);
    this.name = 'StoreCreditRefusedError';
    this.code = code;
  }
}

/** A webhook payload that is signed but not an order or refund the engine can use; retrying will not fix it. */
export class PlatformPayloadError extends Error {
  readonly problems: string[];

  constructor(problems: string[]) {
    super(`Malformed platform payload: ${problems.join('; ')}`);
    this.name = 'PlatformPayloadError';
    this.problems = problems;
  }
}

/** The platform could not be reached, timed out, or kept throttling until retries ran out. */
export class PlatformUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PlatformUnavailableError';
  }
}
