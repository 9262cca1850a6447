// One Shopify Admin GraphQL request as the adapter sends it: plain fetch, a timeout per attempt, retries with
// backoff on throttling and transient failures, one token renewal on a 401, and every failure mapped to
// PlatformError, PlatformRefusedError (access not granted, credentials refused) or PlatformUnavailableError.
import { countMetric, logger } from '../observability/powertools';
import { type AccessTokenSource, staticAccessToken } from './access-tokens';
import { PlatformError, PlatformRefusedError, PlatformUnavailableError } from './port';
import { backoffDelay, retryUntil, type Backoff } from '../runtime/retry';
import { attemptTimeoutMs, MIN_ATTEMPT_MS, platformBudgetMs } from './call-budget';

export interface ShopifyTransportOptions {
  /** Full GraphQL URL, e.g. https://x.myshopify.com/admin/api/2026-10/graphql.json */
  endpoint: string;
  /** A legacy custom app's token; or give `tokens`. */
  accessToken?: string;
  /** Where tokens come from (expiring ones from the client credentials grant); wins over `accessToken`. */
  tokens?: AccessTokenSource;
  /** Per attempt, including reading the body. Default 3000. */
  timeoutMs?: number;
  /** Attempts in all, the first included. Default 3. */
  maxAttempts?: number;
  /** First retry waits about this long; each further retry doubles it. Default 100. */
  baseDelayMs?: number;
  fetchImpl?: typeof fetch;
}

export interface ShopifyTransport {
  /** Sends one GraphQL document and returns its `data`; `operation` names the call in error messages. */
  request<T>(operation: string, query: string, variables: Record<string, unknown>): Promise<T>;
  /**
   * The same, also saying whether a retried attempt may have been applied by the platform before it
   * failed (a timeout or a lost connection, not a throttling answer): a later "no" then does not prove
   * that nothing was done. A PlatformError thrown after such an attempt carries the flag too.
   */
  requestTracked<T>(
    operation: string,
    query: string,
    variables: Record<string, unknown>,
  ): Promise<{ data: T; earlierAttemptMayHaveApplied: boolean }>;
  /**
   * One GraphQL document for a call the platform cannot take twice safely (no idempotency key: a store credit
   * credit or debit): retried only after answers that prove nothing was done (throttling, HTTP 429, a 401 before
   * the token's renewal). A timeout, a lost connection or a 5XX is not retried: it is a PlatformUnavailableError,
   * after which the call may or may not have been applied.
   */
  requestOnce<T>(operation: string, query: string, variables: Record<string, unknown>): Promise<T>;
  /** The text with the access token blanked out: errors can echo request details. */
  redact(text: string): string;
}

// A server that asks for a longer pause than this is better reported as unavailable than waited on
// inside a Lambda invocation.
const MAX_WAIT_MS = 2000;

interface QueryCost {
  requestedQueryCost?: number;
  throttleStatus?: { currentlyAvailable?: number; restoreRate?: number };
}

interface GraphqlError {
  message?: string;
  path?: Array<string | number>;
  extensions?: { code?: string; cost?: QueryCost; requiredAccess?: string };
}

interface GraphqlResponse<T> {
  data?: T | null;
  errors?: GraphqlError[] | string;
  extensions?: { cost?: QueryCost };
}

type Attempt<T> =
  | { kind: 'data'; data: T }
  | { kind: 'retry'; reason: string; waitMs?: number }
  /** HTTP 401: the token was not (or no longer) accepted; nothing was done. */
  | { kind: 'unauthorized'; token: string };

/**
 * What the store has not granted, in words: Shopify names a missing scope in `requiredAccess`
 * ("`read_orders` access scope.") and protected customer data in the message ("not approved to access
 * the Customer object").
 */
export function missingAccessOf(error: GraphqlError | null, operation: string): string {
  const required = error?.extensions?.requiredAccess?.replace(/\.$/, '');
  if (required) return required;
  const object = /not approved to access the (\w+) object/i.exec(error?.message ?? '')?.[1];
  if (object) return `protected customer data (the ${object} object)`;
  return `the access ${operation} needs`;
}

/** Seconds (or an HTTP date) from a Retry-After header, as milliseconds capped at MAX_WAIT_MS. */
function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
  if (!Number.isFinite(ms)) return undefined;
  return Math.min(Math.max(ms, 0), MAX_WAIT_MS);
}

/**
 * How long until the bucket holds enough points for the query again. Shopify puts the cost in the
 * response's top-level `extensions`; older answers carried it on the error, so both are read.
 */
function throttleWaitMs(cost: QueryCost | undefined): number | undefined {
  const available = cost?.throttleStatus?.currentlyAvailable;
  const rate = cost?.throttleStatus?.restoreRate;
  const requested = cost?.requestedQueryCost;
  if (available === undefined || !rate || requested === undefined) return undefined;
  return Math.min(Math.max(((requested - available) / rate) * 1000, 0), MAX_WAIT_MS);
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

export function createShopifyTransport(options: ShopifyTransportOptions): ShopifyTransport {
  const transport = new GraphqlTransport(options);
  return {
    redact: (text) => transport.redact(text),
    requestTracked: (operation, query, variables) => transport.requestTracked(operation, query, variables),
    requestOnce: async <T>(operation: string, query: string, variables: Record<string, unknown>) =>
      (await transport.requestTracked<T>(operation, query, variables, true)).data,
    request: async <T>(operation: string, query: string, variables: Record<string, unknown>) =>
      (await transport.requestTracked<T>(operation, query, variables)).data,
  };
}

type Answered<T> = Exclude<Attempt<T>, { kind: 'unauthorized' }>;

/** One shop's GraphQL endpoint with its token source: attempts, token renewal and retries. */
class GraphqlTransport {
  private readonly timeoutMs: number;
  private readonly maxAttempts: number;
  private readonly fetchImpl: typeof fetch;
  private readonly tokens: AccessTokenSource;
  // Half fixed, half random: spreads concurrent retries without ever retrying immediately.
  private readonly backoff: Backoff;

  constructor(private readonly options: ShopifyTransportOptions) {
    this.timeoutMs = options.timeoutMs ?? 3000;
    this.maxAttempts = Math.max(1, options.maxAttempts ?? 3);
    this.fetchImpl = options.fetchImpl ?? fetch;
    this.tokens = options.tokens ?? staticAccessToken(options.accessToken ?? '');
    this.backoff = { baseMs: (options.baseDelayMs ?? 100) / 2, capMs: MAX_WAIT_MS, jitter: 'equal' };
  }

  redact(text: string): string {
    return this.tokens.issued().reduce((redacted, token) => (token ? redacted.split(token).join('[redacted]') : redacted), text);
  }

  /** Not transient: logged at ERROR and counted (an alarm watches the metric), never retried. */
  private refusedAccess(operation: string, error: GraphqlError | null, status: number | null): PlatformRefusedError {
    const missing = missingAccessOf(error, operation);
    logger.error('Shopify refused access the store has not granted', {
      operation,
      missingAccess: missing,
      ...(status !== null ? { httpStatus: status } : {}),
      ...(error?.message ? { shopifyMessage: this.redact(error.message).slice(0, 300) } : {}),
    });
    countMetric('PlatformAccessDenied');
    return new PlatformRefusedError(
      'access_denied',
      `Shopify denied ${operation}: the store has not granted ${missing}`,
      `The store has not granted this app ${missing}. An operator must grant it in the app's configuration on Shopify.`,
    );
  }

  /** One POST of the document: a transient failure or a 401 as an attempt's outcome, else the answer's status and text. */
  private async send(body: string): Promise<Attempt<never> | { kind: 'answer'; response: Response; text: string }> {
    const accessToken = await this.tokens.token();
    const controller = new AbortController();
    const cutTimeoutMs = attemptTimeoutMs(this.timeoutMs);
    const timer = setTimeout(() => controller.abort(), cutTimeoutMs);
    try {
      const response = await this.fetchImpl(this.options.endpoint, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-Shopify-Access-Token': accessToken },
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
      if (response.status === 401) {
        await response.body?.cancel().catch(() => undefined);
        return { kind: 'unauthorized', token: accessToken };
      }
      return { kind: 'answer', response, text: await response.text() };
    } catch (error) {
      if (controller.signal.aborted) return { kind: 'retry', reason: `timed out after ${cutTimeoutMs} ms` };
      const cause = (error as { cause?: unknown })?.cause;
      const detail = [String((error as Error)?.message ?? error), cause instanceof Error ? cause.message : ''].filter(Boolean).join(': ');
      return { kind: 'retry', reason: `network error (${detail})` };
    } finally {
      clearTimeout(timer);
    }
  }

  private async attemptOnce<T>(operation: string, body: string): Promise<Attempt<T>> {
    const sent = await this.send(body);
    if (sent.kind !== 'answer') return sent;
    const { response, text } = sent;
    if (response.status === 403) throw this.refusedAccess(operation, null, 403);
    if (!response.ok) {
      throw new PlatformError(this.redact(`Shopify answered HTTP ${response.status}${summarizeBody(text)}`));
    }
    let parsed: GraphqlResponse<T>;
    try {
      parsed = JSON.parse(text) as GraphqlResponse<T>;
    } catch {
      throw new PlatformError('Shopify answered HTTP 200 with a body that is not JSON');
    }
    if (typeof parsed.errors === 'string') throw new PlatformError(this.redact(`Shopify GraphQL error: ${parsed.errors}`));
    if (Array.isArray(parsed.errors) && parsed.errors.length > 0) {
      const throttled = parsed.errors.find((error) => error.extensions?.code === 'THROTTLED');
      if (throttled) {
        const waitMs = throttleWaitMs(parsed.extensions?.cost ?? throttled.extensions?.cost);
        return { kind: 'retry', reason: 'throttled', waitMs };
      }
      const denied = parsed.errors.find((error) => error.extensions?.code === 'ACCESS_DENIED');
      if (denied) throw this.refusedAccess(operation, denied, null);
      const messages = parsed.errors.map((error) => error.message ?? 'unknown error').join('; ');
      throw new PlatformError(this.redact(`Shopify GraphQL error: ${messages}`));
    }
    if (parsed.data === undefined || parsed.data === null) throw new PlatformError('Shopify answered without data');
    return { kind: 'data', data: parsed.data };
  }

  /**
   * An attempt, renewing the token once on a 401 (the renewal shared with every concurrent caller) and sending the
   * same request again at once: a 401 changes nothing on the platform; a second 401 is the credentials' fault.
   */
  private async attemptWithToken<T>(operation: string, body: string, state: { renewed: boolean }): Promise<Answered<T>> {
    const attempt = await this.attemptOnce<T>(operation, body);
    if (attempt.kind !== 'unauthorized') return attempt;
    if (state.renewed) throw refusedToken(operation, true);
    state.renewed = true;
    const next = await this.tokens.renew(attempt.token);
    if (next === null) throw refusedToken(operation, false);
    const again = await this.attemptOnce<T>(operation, body);
    if (again.kind === 'unauthorized') throw refusedToken(operation, true);
    return again;
  }

  async requestTracked<T>(operation: string, query: string, variables: Record<string, unknown>, once = false) {
    const body = JSON.stringify({ query, variables });
    let last: Answered<T> | undefined;
    let earlierAttemptMayHaveApplied = false;
    const state = { renewed: false };
    // Shopify may say how long to wait (Retry-After, the throttle's restore rate); otherwise back off. Never
    // past the invocation's time: a wait that would leave no time for the attempt is cut short, and the
    // attempt is then not made.
    const wait = (retry: number) =>
      Math.min(
        (last?.kind === 'retry' ? last.waitMs : undefined) ?? backoffDelay(retry, this.backoff),
        Math.max(0, platformBudgetMs() - MIN_ATTEMPT_MS),
      );
    let attempts = 0;
    const data = await retryUntil(this.maxAttempts, wait, async () => {
      if (platformBudgetMs() < MIN_ATTEMPT_MS) {
        const reason = last?.kind === 'retry' ? `; the last attempt: ${last.reason}` : '';
        throw new PlatformUnavailableError(
          this.redact(`Shopify ${operation} stopped after ${attempts} attempts: the function's time limit is near${reason}`),
        );
      }
      attempts += 1;
      try {
        last = await this.attemptWithToken<T>(operation, body, state);
      } catch (error) {
        if (error instanceof PlatformError && !(error instanceof PlatformRefusedError) && earlierAttemptMayHaveApplied)
          throw new PlatformError(error.message, { earlierAttemptMayHaveApplied });
        throw error;
      }
      if (last.kind === 'data') return { value: last.data };
      if (last.reason !== 'throttled' && last.reason !== 'HTTP 429') {
        if (once) throw new PlatformUnavailableError(this.redact(`Shopify ${operation} may or may not have been applied: ${last.reason}`));
        earlierAttemptMayHaveApplied = true;
      }
      return undefined;
    });
    if (data) return { data: data.value, earlierAttemptMayHaveApplied };
    const reason = last?.kind === 'retry' ? last.reason : '';
    throw new PlatformUnavailableError(this.redact(`Shopify ${operation} failed after ${this.maxAttempts} attempts: ${reason}`));
  }
}

function refusedToken(operation: string, afterRenewal: boolean): PlatformRefusedError {
  logger.error('Shopify refused the access token', { operation, afterRenewal });
  countMetric('PlatformAccessDenied');
  return new PlatformRefusedError(
    'credentials',
    `Shopify refused the access token for ${operation} (HTTP 401${afterRenewal ? ', also after a renewal' : ''}): the token or the app's credentials are not valid for this store`,
    "The store's Shopify access token was refused. An operator must check the app's installation and the shop's Shopify secret.",
  );
}
