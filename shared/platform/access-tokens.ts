// Admin API access tokens. A legacy custom app has one token that never expires; an app created in the Dev
// Dashboard gets tokens from the client credentials grant that expire (24 h), so this module asks for one
// when a call first needs it, shares it with every call of the function instance, asks again shortly
// before it expires or once after Shopify refused it, and never lets concurrent callers ask twice.
import { countMetric, logger } from '../observability/powertools';
import { PlatformError, PlatformRefusedError, PlatformUnavailableError } from './port';
import { type Backoff, retryUntil } from '../runtime/retry';
import { attemptTimeoutMs } from './call-budget';

export interface AccessTokenSource {
  /** A token believed valid now (asked for first if there is none or it is about to expire). */
  token(): Promise<string>;
  /**
   * After Shopify answered 401 to `rejected`: a new token, asked for once however many callers report
   * the same rejected token; null when this source cannot renew (a static token).
   */
  renew(rejected: string): Promise<string | null>;
  /** Every token this source handed out (most recent last), so errors can be redacted of them. */
  issued(): readonly string[];
}

/** A legacy custom app's token: never expires, cannot be renewed. */
export function staticAccessToken(token: string): AccessTokenSource {
  return { token: async () => token, renew: async () => null, issued: () => [token] };
}

export interface ClientCredentialsOptions {
  /** https://{shop}.myshopify.com/admin/oauth/access_token (or the simulator's). */
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /** Names the shop in errors; never a secret. */
  shopId: string;
  timeoutMs?: number;
  maxAttempts?: number;
  baseDelayMs?: number;
  fetchImpl?: typeof fetch;
  /** Real time (tokens expire in real time, not in the domain's clock); tests move it. */
  realNow?: () => number;
}

interface HeldToken {
  value: string;
  /** Real-time ms after which the token is no longer used. */
  renewAt: number;
}

/** Renew this long before expiry: a call started just before the end must not reach Shopify after it. */
const MAX_MARGIN_MS = 5 * 60 * 1000;
/** Tokens kept for redaction: enough to cover every rotation a warm instance sees. */
const REMEMBERED_TOKENS = 8;

/** When to stop using a token that lives `lifetimeMs`: 5 minutes early, or a tenth early for short lifetimes. */
export function renewalTime(issuedAt: number, lifetimeMs: number): number {
  return issuedAt + lifetimeMs - Math.min(MAX_MARGIN_MS, lifetimeMs / 10);
}

interface GrantAnswer {
  access_token?: unknown;
  expires_in?: unknown;
  error?: unknown;
}

export function clientCredentialsTokens(options: ClientCredentialsOptions): AccessTokenSource {
  const realNow = options.realNow ?? Date.now;
  const fetchImpl = options.fetchImpl ?? fetch;
  const timeoutMs = options.timeoutMs ?? 3000;
  const maxAttempts = Math.max(1, options.maxAttempts ?? 3);
  const backoff: Backoff = { baseMs: (options.baseDelayMs ?? 100) / 2, capMs: 2000, jitter: 'equal' };
  const issued: string[] = [];
  let held: HeldToken | null = null;
  let inFlight: Promise<string> | null = null;

  /** One grant request: the answer, or 'retry' for a failure that may pass (timeout, network, 429, 5xx). */
  const grantOnce = async (): Promise<HeldToken | 'retry'> => {
    const body = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: options.clientId,
      client_secret: options.clientSecret,
    });
    let response: Response;
    let text: string;
    try {
      response = await fetchImpl(options.tokenUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
        body: body.toString(),
        signal: AbortSignal.timeout(attemptTimeoutMs(timeoutMs)),
      });
      text = await response.text();
    } catch {
      return 'retry';
    }
    if (response.status === 429 || response.status >= 500) return 'retry';
    const answer = grantedToken(options.shopId, response, text);
    const lifetimeSeconds = typeof answer.expires_in === 'number' && answer.expires_in > 0 ? answer.expires_in : 86_399;
    issued.push(answer.access_token);
    if (issued.length > REMEMBERED_TOKENS) issued.shift();
    return { value: answer.access_token, renewAt: renewalTime(realNow(), lifetimeSeconds * 1000) };
  };

  const grant = (): Promise<string> => {
    // One request at a time: every caller that finds the token missing or stale waits for the same one.
    inFlight ??= (async () => {
      try {
        const got = await retryUntil(maxAttempts, backoff, async () => {
          const answer = await grantOnce();
          return answer === 'retry' ? undefined : answer;
        });
        if (!got)
          throw new PlatformUnavailableError(`Shopify's token endpoint for shop '${options.shopId}' failed after ${maxAttempts} attempts`);
        held = got;
        return got.value;
      } finally {
        inFlight = null;
      }
    })();
    return inFlight;
  };

  return {
    async token() {
      if (held && realNow() < held.renewAt) return held.value;
      return grant();
    },
    async renew(rejected) {
      // Another caller already replaced the rejected token: use the new one rather than asking again.
      if (held && held.value !== rejected && realNow() < held.renewAt) return held.value;
      if (inFlight) return inFlight;
      held = null;
      return grant();
    },
    issued: () => issued,
  };
}

/** A token request's answer that is not transient: the token granted, else a refusal (or a PlatformError) thrown. */
function grantedToken(shopId: string, response: Response, text: string): GrantAnswer & { access_token: string } {
  let answer: GrantAnswer = {};
  try {
    answer = JSON.parse(text) as GrantAnswer;
  } catch {
    // reported below by status
  }
  if (response.status === 400 || response.status === 401 || response.status === 403) {
    // Shopify's OAuth errors name the problem (invalid_client, unauthorized_client); never the secret.
    throw refusedCredentials(shopId, typeof answer.error === 'string' ? answer.error : `HTTP ${response.status}`);
  }
  if (!response.ok || typeof answer.access_token !== 'string' || answer.access_token === '') {
    throw new PlatformError(`Shopify answered the token request of shop '${shopId}' with HTTP ${response.status} and no token`);
  }
  return answer as GrantAnswer & { access_token: string };
}

/** Not transient: logged at ERROR and counted like access not granted (the same alarm), never retried. */
function refusedCredentials(shopId: string, detail: string): PlatformRefusedError {
  const error = new PlatformRefusedError(
    'credentials',
    `Shopify refused the client credentials of shop '${shopId}' (${detail}): check client_id and client_secret in the shop's Shopify secret`,
    "The store's Shopify credentials were refused. An operator must correct the shop's client id and secret.",
  );
  logger.error('Shopify refused the client credentials', { shop: shopId, oauthError: detail });
  countMetric('PlatformAccessDenied');
  return error;
}
