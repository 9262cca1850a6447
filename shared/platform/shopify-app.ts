// What the Shopify app behind this service must be granted and subscribed to: the one list that the
// webhook processor, the generated shopify.app.toml and the deploy guide all follow.
import { SHOPIFY_API_VERSION } from './shopify-api-version';

/** The topics the service handles (besides the compliance topics), each with the scope it needs. */
export const SHOPIFY_WEBHOOK_TOPICS = [
  { topic: 'orders/paid', scope: 'read_orders' },
  { topic: 'orders/updated', scope: 'read_orders' },
  { topic: 'orders/cancelled', scope: 'read_orders' },
  { topic: 'refunds/create', scope: 'read_orders' },
  { topic: 'customers/create', scope: 'read_customers' },
  { topic: 'customers/update', scope: 'read_customers' },
  { topic: 'customers/delete', scope: 'read_customers' },
  { topic: 'customers/merge', scope: 'read_customer_merge' },
  { topic: 'app/uninstalled', scope: null },
] as const;

/** Shopify's mandatory privacy topics: subscribed as `compliance_topics`, not as `topics`. */
export const SHOPIFY_COMPLIANCE_TOPICS = ['customers/data_request', 'customers/redact', 'shop/redact'] as const;

export type ShopifyWebhookTopic = (typeof SHOPIFY_WEBHOOK_TOPICS)[number]['topic'];
export type ShopifyComplianceTopic = (typeof SHOPIFY_COMPLIANCE_TOPICS)[number];

/** Every access scope the service uses, with what needs it (the deploy guide prints the reasons). */
export const SHOPIFY_ACCESS_SCOPES = [
  {
    scope: 'read_customers',
    why: "the customer query of enrolment, the customers/* webhooks, and the signed-in customer (`sub`) in the checkout extensions' session tokens",
  },
  { scope: 'read_customer_merge', why: 'the customers/merge webhook' },
  { scope: 'read_discounts', why: 'codeDiscountNodeByCode: finding a reward code again after a retry, the purchase reconciler' },
  {
    scope: 'write_discounts',
    why: 'discountCodeBasicCreate, discountCodeFreeShippingCreate and discountCodeDelete: reward codes (amount, percentage, free product, free shipping)',
  },
  {
    scope: 'write_store_credit_account_transactions',
    why: 'storeCreditAccountCredit and storeCreditAccountDebit: store credit rewards, and their undo',
  },
  {
    scope: 'read_store_credit_accounts',
    why: "the customer's storeCreditAccounts: finding a store credit reward's own transaction after a lost answer, a retry, the reconciler",
  },
  {
    scope: 'read_store_credit_account_transactions',
    why: "the accounts' transactions: finding a store credit reward's own credit or debit again instead of sending another",
  },
  { scope: 'read_orders', why: 'the orders query of order reconciliation, and the orders/* and refunds/create webhooks' },
] as const;

/**
 * What the app's extensions need of Shopify besides scopes (docs/deploy.md, docs/checkout.md): granted in the Dev
 * Dashboard or declared in the extension's own toml, not in shopify.app.toml's scopes, so `shopify-app-config`
 * prints them as comments, each with why.
 */
export const SHOPIFY_EXTENSION_NEEDS = [
  {
    need: "network access (the extensions' `network_access = true`, approved in the Dev Dashboard)",
    why: "the customer account and checkout extensions fetch the service's /shopper routes",
  },
  {
    need: 'protected customer data, level 1 (Dev Dashboard, API access requests)',
    why: "the checkout block reads the buyer's customer id (`buyerIdentity.customer`) to reload when the buyer signs in during checkout; without it the block still works from the session token",
  },
  {
    need: 'Shopify Plus for the checkout block (purchase.checkout.reductions.render-after)',
    why: 'Shopify renders checkout-step extensions on Plus shops only; the thank-you and order status blocks run on every plan but Starter',
  },
] as const;

export const SHOPIFY_WEBHOOK_API_VERSION = SHOPIFY_API_VERSION;

/**
 * The app proxy (SURFACES-CONTRACT.md): the storefront's `/{prefix}/{subpath}/{rest}` reaches
 * `{api}{path}/{rest}`, signed by Shopify. shopify.app.toml, the twin's storefront and the theme app
 * extension's script all use it.
 */
export const SHOPIFY_APP_PROXY = { prefix: 'apps', subpath: 'loyalty', path: '/shopper' } as const;

export function isHandledTopic(topic: string): topic is ShopifyWebhookTopic | ShopifyComplianceTopic {
  return SHOPIFY_WEBHOOK_TOPICS.some((entry) => entry.topic === topic) || (SHOPIFY_COMPLIANCE_TOPICS as readonly string[]).includes(topic);
}
