// Runtime settings, parsed once from the environment with zod. Nothing else reads process.env.
import { z } from 'zod';

const envSchema = z.object({
  TABLE_NAME: z.string().min(1),
  /** Set for DynamoDB Local or any non-AWS endpoint; unset in Lambda. */
  DYNAMODB_ENDPOINT: z.url().optional(),
  AWS_REGION: z.string().min(1).default('us-east-1'),
  /** Local twin only: base URL of the platform simulator; shop GraphQL endpoints hang below it. */
  PLATFORM_BASE_URL: z.url().optional(),
  /** Cloud: Secrets Manager name prefix of the per-shop Shopify credentials. */
  SHOPIFY_SECRET_PREFIX: z.string().min(1).optional(),
  PLATFORM_ACCESS_TOKEN: z.string().min(1).default('local-simulator-token'),
  PLATFORM_TIMEOUT_MS: z.coerce.number().int().positive().default(3000),
  PLATFORM_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
  PLATFORM_RETRY_BASE_MS: z.coerce.number().int().min(0).default(100),
  /** EventBridge bus for domain events (cloud). */
  EVENT_BUS_NAME: z.string().min(1).optional(),
  /** JSON-lines file for domain events (local twin). */
  EVENTS_LOG_FILE: z.string().min(1).optional(),
  /** Benchmarks: count DynamoDB calls and consumed capacity (see shared/data/dynamodb-stats.ts). */
  DYNAMODB_STATS: z.stringbool().optional(),
  /** How long a warm function reuses a shop's configuration (rules, tiers, rewards) before re-reading it. */
  SHOP_CONFIG_TTL_SECONDS: z.coerce.number().min(0).default(30),
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
