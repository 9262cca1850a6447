// Runtime settings, parsed once from the environment with zod. Nothing else reads process.env.
// zod/mini rather than classic zod: the same validation at a fraction of the bundle and cold-start
// cost (the measured difference is in docs/performance.md).
import * as z from 'zod/mini';
import { en } from 'zod/locales';

// English messages for the issues this module reports ("expected string, received undefined").
z.config(en());

const text = () => z.string().check(z.minLength(1));
const count = (fallback: number, ...checks: Array<z.core.$ZodCheck<number>>) => z._default(z.coerce.number().check(...checks), fallback);

const envSchema = z.object({
  TABLE_NAME: text(),
  /** Set for DynamoDB Local or any non-AWS endpoint; unset in Lambda. */
  DYNAMODB_ENDPOINT: z.optional(z.url()),
  AWS_REGION: z._default(text(), 'us-east-1'),
  /** Local twin only: base URL of the platform simulator; shop GraphQL endpoints hang below it. */
  PLATFORM_BASE_URL: z.optional(z.url()),
  /** Cloud: Secrets Manager name prefix of the per-shop Shopify credentials. */
  SHOPIFY_SECRET_PREFIX: z.optional(text()),
  PLATFORM_ACCESS_TOKEN: z._default(text(), 'local-simulator-token'),
  PLATFORM_TIMEOUT_MS: count(3000, z.refine(Number.isInteger, 'expected an integer'), z.positive()),
  PLATFORM_MAX_ATTEMPTS: count(3, z.refine(Number.isInteger, 'expected an integer'), z.gte(1), z.lte(10)),
  PLATFORM_RETRY_BASE_MS: count(100, z.refine(Number.isInteger, 'expected an integer'), z.gte(0)),
  /** EventBridge bus for domain events (cloud). */
  EVENT_BUS_NAME: z.optional(text()),
  /** The twin: the JSON-lines file of what its bus took (GET /_events). */
  EVENTS_LOG_FILE: z.optional(text()),
  /** Cloud: the webhook delivery queue (SQS), where the receiver sends every verified delivery. */
  WEBHOOK_DELIVERY_QUEUE_URL: z.optional(z.url()),
  /** Benchmarks: count DynamoDB calls and consumed capacity (see shared/data/dynamodb-stats.ts). */
  DYNAMODB_STATS: z.optional(z.stringbool()),
  /** Cloud, authorizer-cache flusher only: the REST API and stage whose authorizer cache a key change flushes. */
  REST_API_ID: z.optional(text()),
  API_STAGE_NAME: z.optional(text()),
  /** How long a warm function reuses a shop's configuration (rules, tiers, rewards) before re-reading it. */
  SHOP_CONFIG_TTL_SECONDS: count(30, z.gte(0)),
  /** Klaviyo's API (default https://a.klaviyo.com); the twin points it at the simulator's `/klaviyo`. */
  KLAVIYO_BASE_URL: z.optional(z.url()),
  /** The Klaviyo client's first backoff step after a 5XX or a lost connection (ms; tests shorten it). */
  KLAVIYO_RETRY_BASE_MS: count(250, z.refine(Number.isInteger, 'expected an integer'), z.gte(0)),
  /** Cloud, Klaviyo consumer only: the queue of what Klaviyo refused (a 4XX other than 429). */
  KLAVIYO_REFUSED_QUEUE_URL: z.optional(z.url()),
  /** GET /admin: where the page loads App Bridge from (Shopify's CDN; the twin's stand-in locally). */
  APP_BRIDGE_SCRIPT_URL: z._default(z.url(), 'https://cdn.shopify.com/shopifycloud/app-bridge.js'),
  /** GET /admin: origins beside the shop's and admin.shopify.com that may frame the page (the twin's admin), space-separated. */
  ADMIN_FRAME_ANCESTORS: z._default(z.string(), ''),
  /** GET /admin: the app's script, when not admin-app.js in the function's package (the twin builds it at its start). */
  ADMIN_APP_SCRIPT_FILE: z.optional(text()),
  /**
   * Each shop's shopper budget (shared/http/shopper-handler.ts): on unless `false`, which only the twin sets, with
   * its gateway's throttles off (`--no-throttling`: the bench).
   */
  SHOPPER_BUDGET: z._default(z.stringbool(), true),
  /** Set by Lambda: the function's package folder. */
  LAMBDA_TASK_ROOT: z.optional(text()),
});

export type Env = z.infer<typeof envSchema>;

let cached: Env | undefined;

/** The parsed environment; throws on first use with every missing or invalid variable named. */
export function env(): Env {
  if (cached) return cached;
  const parsed = envSchema.safeParse(process.env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`Invalid environment: ${problems}`);
  }
  cached = parsed.data;
  return cached;
}

/** Forgets the parsed environment (the local twin and tests set variables before handlers run). */
export function resetEnv(): void {
  cached = undefined;
}
