// Shopify's rules for the parts of shopify.app.toml that `loyalty shopify-app-config` writes, transcribed
// from the zod schemas bundled in @shopify/cli 4.8.2 (modules branding, app_home, app_access and webhooks,
// app_proxy, and the base app schema). No package on the registry carries that schema in a form this project can
// load (docs/decisions.md), so the tests hold the generated file to this transcription.
import { z } from 'zod';

const COMPLIANCE_TOPICS = ['customers/redact', 'customers/data_request', 'shop/redact'] as const;

/** Shopify's `validateUrl`: parses as an http(s) URL (https only where asked) and holds no newline. */
const validUrl = (httpsOnly: boolean) =>
  z.string().refine((value) => {
    try {
      const url = new URL(value);
      return !value.includes('\n') && (httpsOnly ? url.protocol === 'https:' : ['http:', 'https:'].includes(url.protocol));
    } catch {
      return false;
    }
  }, 'Invalid URL');

/** A subscription's uri: a relative path, an HTTPS URL, Pub/Sub, Kafka or an EventBridge ARN (trailing slashes dropped). */
const webhookUri = z.preprocess(
  (value) => (typeof value === 'string' ? value.replace(/\/+$/, '') : value),
  z
    .string()
    .refine(
      (value) =>
        value.startsWith('/') ||
        /^https:\/\//.test(value) ||
        /^pubsub:\/\/[^:]+:.+$/.test(value) ||
        /^arn:aws:events:[a-z]{2}-[a-z]+-[0-9]+::event-source\/aws\.partner\/shopify\.com(\.test)?\/\d+\/.+$/.test(value) ||
        /^kafka:\/\/[a-zA-Z0-9_.-]+$/.test(value),
      "URI format isn't correct",
    ),
);

const subscription = z.object({
  topics: z.array(z.string()).optional(),
  actions: z.array(z.string()).optional(),
  uri: webhookUri,
  include_fields: z.array(z.string()).optional(),
  filter: z.string().optional(),
  payload_query: z.string().trim().min(1).optional(),
  name: z.string().trim().min(1).max(50).optional(),
  compliance_topics: z.array(z.enum(COMPLIANCE_TOPICS)).optional(),
});

const webhooks = z
  .object({
    api_version: z.string(),
    privacy_compliance: z
      .object({
        customer_deletion_url: z.string().optional(),
        customer_data_request_url: z.string().optional(),
        shop_deletion_url: z.string().optional(),
      })
      .optional(),
    subscriptions: z.array(subscription).optional(),
  })
  .superRefine((value, context) => {
    const subscriptions = value.subscriptions ?? [];
    if (value.privacy_compliance && subscriptions.some((entry) => entry.compliance_topics)) {
      context.addIssue({ code: 'custom', message: "The privacy_compliance section can't be used with compliance_topics" });
    }
    const compliance = subscriptions.flatMap((entry) => entry.compliance_topics ?? []);
    if (new Set(compliance).size !== compliance.length) {
      context.addIssue({ code: 'custom', message: 'You can’t have multiple subscriptions with the same compliance topic' });
    }
    const seen = new Set<string>();
    for (const [index, entry] of subscriptions.entries()) {
      if (!entry.topics?.length && !entry.compliance_topics?.length) {
        context.addIssue({ code: 'custom', path: ['subscriptions', index], message: 'Either topics or compliance_topics must be added' });
      }
      for (const topic of entry.topics ?? []) {
        const key = `${topic}::${entry.uri}::${entry.filter ?? ''}`;
        if (seen.has(key))
          context.addIssue({ code: 'custom', message: `Multiple subscriptions with the exact same topic, uri, and filter: ${key}` });
        seen.add(key);
      }
    }
  });

/**
 * The app_proxy module: `url` a valid http(s) URL, `subpath` and `prefix` strings. Shopify's admin allows
 * only the prefixes `apps`, `a`, `community` and `tools`, and a subpath of letters, digits, `-` and `_`;
 * the transcription holds those too, so a typo fails here rather than at deploy.
 */
const appProxy = z
  .object({
    url: validUrl(false),
    subpath: z.string().regex(/^[A-Za-z0-9_-]+$/),
    prefix: z.enum(['apps', 'a', 'community', 'tools']),
  })
  .strict();

/**
 * The app configuration. Shopify passes unknown top-level keys through; this transcription refuses them,
 * so a misspelt key in the generated file fails the tests instead of being ignored at deploy.
 */
export const shopifyAppConfigSchema = z
  .object({
    client_id: z.string(),
    build: z
      .object({
        automatically_update_urls_on_dev: z.boolean().optional(),
        dev_store_url: z.string().optional(),
        include_config_on_deploy: z.boolean().optional(),
      })
      .optional(),
    name: z.string().max(30),
    handle: z.string().max(256).optional(),
    application_url: validUrl(false),
    embedded: z.boolean(),
    app_preferences: z.object({ url: validUrl(false) }).optional(),
    access_scopes: z
      .object({
        scopes: z.string().optional(),
        required_scopes: z.array(z.string()).optional(),
        optional_scopes: z.array(z.string()).optional(),
        use_legacy_install_flow: z.boolean().optional(),
      })
      .optional(),
    auth: z.object({ redirect_urls: z.array(validUrl(false)) }),
    app_proxy: appProxy.optional(),
    webhooks,
  })
  .strict();
