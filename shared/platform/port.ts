// The commerce platform port: what the loyalty domain needs from Shopify (or the local simulator).

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
  customerId: string;
  /** `fixed`: amount in major currency units; `percentage`: 0-100. */
  discountType: 'fixed' | 'percentage';
  amount: number;
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

export interface Platform {
  /** Resolves a customer, or null when the platform has no customer with that id. */
  getCustomer(customerId: string): Promise<PlatformCustomer | null>;
  /** Creates a single-use code limited to one customer; returns the existing one if the code already exists. */
  createDiscountCode(input: DiscountCodeInput): Promise<DiscountCode>;
  /** Finds a discount code by its code, or null. */
  findDiscountCode(code: string): Promise<DiscountCode | null>;
  /** Deletes a discount code by its platform id. */
  deleteDiscountCode(id: string): Promise<void>;
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

/** The platform could not be reached, timed out, or kept throttling until retries ran out. */
export class PlatformUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PlatformUnavailableError';
  }
}
