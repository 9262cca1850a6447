// The Shopify Admin GraphQL adapter of the Platform port: plain fetch, a timeout per attempt, retries with
// backoff on throttling and transient failures, and every failure mapped to PlatformError or PlatformUnavailableError.
import {
  type DiscountCode,
  type DiscountCodeInput,
  type Platform,
  type PlatformCustomer,
  PlatformError,
  PlatformUnavailableError,
} from './port';

export interface ShopifyPlatformOptions {
  /** Full GraphQL URL, e.g. https://x.myshopify.com/admin/api/2025-07/graphql.json */
  endpoint: string;
  accessToken: string;
  /** Per attempt, including reading the body. Default 3000. */
  timeoutMs?: number;
  /** Attempts in all, the first included. Default 3. */
  maxAttempts?: number;
  /** First retry waits about this long; each further retry doubles it. Default 100. */
  baseDelayMs?: number;
  fetchImpl?: typeof fetch;
}

export const CUSTOMER_QUERY = `query GetCustomer($id: ID!) {
  customer(id: $id) { id email firstName lastName createdAt }
}`;

export const DISCOUNT_CODE_CREATE_MUTATION = `mutation CreateDiscountCode($input: DiscountCodeBasicInput!) {
  discountCodeBasicCreate(basicCodeDiscount: $input) {
    codeDiscountNode { id }
    userErrors { field message code }
  }
}`;

export const DISCOUNT_CODE_BY_CODE_QUERY = `query FindDiscountCode($code: String!) {
  codeDiscountNodeByCode(code: $code) {
    id
    codeDiscount { ... on DiscountCodeBasic { codes(first: 1) { nodes { code } } } }
  }
}`;

export const DISCOUNT_CODE_DELETE_MUTATION = `mutation DeleteDiscountCode($id: ID!) {
  discountCodeDelete(id: $id) {
    deletedCodeDiscountId
    userErrors { field message code }
  }
}`;

// A server that asks for a longer pause than this is better reported as unavailable than waited on
// inside a Lambda invocation.
const MAX_WAIT_MS = 2000;

interface UserError {
  field: string[] | null;
  message: string;
  code: string | null;
}

interface CustomerData {
  customer: {
    id: string;
    email: string | null;
    firstName: string | null;
    lastName: string | null;
    createdAt: string | null;
  } | null;
}

interface DiscountCodeCreateData {
  discountCodeBasicCreate: { codeDiscountNode: { id: string } | null; userErrors: UserError[] } | null;
}

interface DiscountCodeByCodeData {
  codeDiscountNodeByCode: {
    id: string;
    codeDiscount: { codes?: { nodes: Array<{ code: string }> } } | null;
  } | null;
}

interface DiscountCodeDeleteData {
  discountCodeDelete: { deletedCodeDiscountId: string | null; userErrors: UserError[] } | null;
}

interface GraphqlError {
  message?: string;
  extensions?: {
    code?: string;
    cost?: { requestedQueryCost?: number; throttleStatus?: { currentlyAvailable?: number; restoreRate?: number } };
  };
}

type Attempt<T> = { kind: 'data'; data: T } | { kind: 'retry'; reason: string; waitMs?: number };

const CUSTOMER_GID_PREFIX = 'gid://shopify/Customer/';

export function customerGid(customerId: string): string {
  return customerId.startsWith('gid://') ? customerId : `${CUSTOMER_GID_PREFIX}${customerId}`;
}

/** The last path segment of a global id: `gid://shopify/Customer/1001` -> `1001`. */
export function idFromGid(gid: string): string {
  const path = gid.split('?')[0] ?? gid;
  return path.slice(path.lastIndexOf('/') + 1);
}

function isCodeTaken(errors: UserError[]): boolean {
  return errors.some((error) => error.code === 'TAKEN' || /must be unique/i.test(error.message));
}

function describeUserErrors(errors: UserError[]): string {
  return errors
    .map((error) => (error.field?.length ? `${error.field.join('.')}: ${error.message}` : error.message))
    .join('; ');
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Seconds (or an HTTP date) from a Retry-After header, as milliseconds capped at MAX_WAIT_MS. */
function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
  if (!Number.isFinite(ms)) return undefined;
  return Math.min(Math.max(ms, 0), MAX_WAIT_MS);
}

/** Shopify's cost extension says how long until the bucket holds enough points for the query again. */
function throttleWaitMs(error: GraphqlError): number | undefined {
  const cost = error.extensions?.cost;
  const available = cost?.throttleStatus?.currentlyAvailable;
  const rate = cost?.throttleStatus?.restoreRate;
  const requested = cost?.requestedQueryCost;
  if (available === undefined || !rate || requested === undefined) return undefined;
  return Math.min(Math.max(((requested - available) / rate) * 1000, 0), MAX_WAIT_MS);
}

export function createShopifyPlatform(options: ShopifyPlatformOptions): Platform {
  const timeoutMs = options.timeoutMs ?? 3000;
  const maxAttempts = Math.max(1, options.maxAttempts ?? 3);
  const baseDelayMs = options.baseDelayMs ?? 100;
  const fetchImpl = options.fetchImpl ?? fetch;
  const { accessToken, endpoint } = options;

  // Errors from fetch or a server can echo request details; the token must never reach a log line.
  const redact = (text: string): string => (accessToken ? text.split(accessToken).join('[redacted]') : text);

  const backoffMs = (attempt: number): number => {
    const exponential = Math.min(baseDelayMs * 2 ** (attempt - 1), MAX_WAIT_MS);
    // Half fixed, half random: spreads concurrent retries without ever retrying immediately.
    return exponential / 2 + Math.random() * (exponential / 2);
  };

  const attemptOnce = async <T>(body: string): Promise<Attempt<T>> => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    let response: Response;
    let text: string;
    try {
      response = await fetchImpl(endpoint, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json',
          'X-Shopify-Access-Token': accessToken,
        },
        body,
        signal: controller.signal,
      });
      if (response.status === 429 || response.status >= 500) {
        // Drain so keep-alive connections are handed back to the pool.
        await response.body?.cancel().catch(() => undefined);
        return {
          kind: 'retry',
          reason: `HTTP ${response.status}`,
          waitMs: response.status === 429 ? retryAfterMs(response.headers.get('Retry-After')) : undefined,
        };
      }
      text = await response.text();
    } catch (error) {
      if (controller.signal.aborted) return { kind: 'retry', reason: `timed out after ${timeoutMs} ms` };
      const cause = (error as { cause?: unknown })?.cause;
      const detail = [String((error as Error)?.message ?? error), cause instanceof Error ? cause.message : '']
        .filter(Boolean)
        .join(': ');
      return { kind: 'retry', reason: `network error (${detail})` };
    } finally {
      clearTimeout(timer);
    }

    if (!response.ok) {
      throw new PlatformError(redact(`Shopify answered HTTP ${response.status}${summarizeBody(text)}`));
    }
    let parsed: { data?: T | null; errors?: GraphqlError[] | string };
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch {
      throw new PlatformError('Shopify answered HTTP 200 with a body that is not JSON');
    }
    if (typeof parsed.errors === 'string') throw new PlatformError(redact(`Shopify GraphQL error: ${parsed.errors}`));
    if (Array.isArray(parsed.errors) && parsed.errors.length > 0) {
      const throttled = parsed.errors.find((error) => error.extensions?.code === 'THROTTLED');
      if (throttled) return { kind: 'retry', reason: 'throttled', waitMs: throttleWaitMs(throttled) };
      const messages = parsed.errors.map((error) => error.message ?? 'unknown error').join('; ');
      throw new PlatformError(redact(`Shopify GraphQL error: ${messages}`));
    }
    if (parsed.data === undefined || parsed.data === null) throw new PlatformError('Shopify answered without data');
    return { kind: 'data', data: parsed.data };
  };

  /**
   * Sends the request, retrying; also says whether a retried attempt may have been applied by the
   * platform before it failed (a timeout or a lost connection, not a throttling answer), because a
   * later "no" then does not prove that nothing was done.
   */
  const requestTracked = async <T>(
    operation: string,
    query: string,
    variables: Record<string, unknown>,
  ): Promise<{ data: T; earlierAttemptMayHaveApplied: boolean }> => {
    const body = JSON.stringify({ query, variables });
    let reason = '';
    let earlierAttemptMayHaveApplied = false;
    for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
      let outcome: Attempt<T>;
      try {
        outcome = await attemptOnce<T>(body);
      } catch (error) {
        if (error instanceof PlatformError && earlierAttemptMayHaveApplied) {
          throw new PlatformError(error.message, { earlierAttemptMayHaveApplied });
        }
        throw error;
      }
      if (outcome.kind === 'data') return { data: outcome.data, earlierAttemptMayHaveApplied };
      reason = outcome.reason;
      if (reason !== 'throttled' && reason !== 'HTTP 429') earlierAttemptMayHaveApplied = true;
      if (attempt < maxAttempts) await sleep(outcome.waitMs ?? backoffMs(attempt));
    }
    throw new PlatformUnavailableError(redact(`Shopify ${operation} failed after ${maxAttempts} attempts: ${reason}`));
  };
  const request = async <T>(operation: string, query: string, variables: Record<string, unknown>): Promise<T> =>
    (await requestTracked<T>(operation, query, variables)).data;

  const findDiscountCode = async (code: string): Promise<DiscountCode | null> => {
    const data = await request<DiscountCodeByCodeData>('findDiscountCode', DISCOUNT_CODE_BY_CODE_QUERY, { code });
    const node = data.codeDiscountNodeByCode;
    if (!node) return null;
    // Shopify matches codes case-insensitively; report the code as the platform stores it.
    return { id: node.id, code: node.codeDiscount?.codes?.nodes[0]?.code ?? code };
  };

  return {
    async getCustomer(customerId: string): Promise<PlatformCustomer | null> {
      const data = await request<CustomerData>('getCustomer', CUSTOMER_QUERY, { id: customerGid(customerId) });
      const customer = data.customer;
      if (!customer) return null;
      return {
        id: idFromGid(customer.id),
        email: customer.email ?? '',
        firstName: customer.firstName ?? '',
        lastName: customer.lastName ?? '',
        createdAt: customer.createdAt ?? null,
      };
    },

    async createDiscountCode(input: DiscountCodeInput): Promise<DiscountCode> {
      const variables = {
        input: {
          title: input.title,
          code: input.code,
          startsAt: input.startsAt,
          endsAt: input.endsAt,
          customerSelection: { customers: { add: [customerGid(input.customerId)] } },
          customerGets: {
            value:
              input.discountType === 'fixed'
                ? { discountAmount: { amount: input.amount, appliesOnEachItem: false } }
                : { percentage: input.amount / 100 },
            items: { all: true },
          },
          minimumRequirement:
            input.minimumSpend > 0 ? { subtotal: { greaterThanOrEqualToSubtotal: input.minimumSpend } } : null,
          usageLimit: 1,
          appliesOncePerCustomer: true,
        },
      };
      const { data, earlierAttemptMayHaveApplied } = await requestTracked<DiscountCodeCreateData>('createDiscountCode', DISCOUNT_CODE_CREATE_MUTATION, variables);
      const payload = data.discountCodeBasicCreate;
      const userErrors = payload?.userErrors ?? [];
      if (userErrors.length > 0) {
        // The code is deterministic per purchase, so "taken" means an earlier attempt of this very
        // purchase got through: hand back that code instead of failing the retry.
        if (isCodeTaken(userErrors)) {
          const existing = await findDiscountCode(input.code);
          if (existing) return existing;
        }
        throw new PlatformError(redact(`Shopify refused the discount code: ${describeUserErrors(userErrors)}`), { earlierAttemptMayHaveApplied });
      }
      const node = payload?.codeDiscountNode;
      if (!node) throw new PlatformError('Shopify created no discount code and reported no error');
      return { id: node.id, code: input.code };
    },

    findDiscountCode,

    async deleteDiscountCode(id: string): Promise<void> {
      const data = await request<DiscountCodeDeleteData>('deleteDiscountCode', DISCOUNT_CODE_DELETE_MUTATION, { id });
      const userErrors = data.discountCodeDelete?.userErrors ?? [];
      if (userErrors.length > 0) {
        throw new PlatformError(redact(`Shopify refused to delete the discount code: ${describeUserErrors(userErrors)}`));
      }
    },
  };
}

/** A short excerpt of an error body: enough to tell "bad token" from "no such shop" in a log. */
function summarizeBody(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return '';
  try {
    const parsed = JSON.parse(trimmed) as { errors?: unknown };
    if (parsed.errors !== undefined) {
      const errors = typeof parsed.errors === 'string' ? parsed.errors : JSON.stringify(parsed.errors);
      return `: ${errors.slice(0, 200)}`;
    }
  } catch {
    // Not JSON: an HTML error page from a proxy tells nothing useful beyond the status.
  }
  return '';
}
