// The shops the simulator knows: their customers, the domain and webhook secret their deliveries carry, the
// currency their orders are in and, for a Dev Dashboard app, its client credentials. Defaults follow the
// configuration file's, so a test can name just customers.
import { defaultShopDomain, defaultWebhookSecret } from '../../../shared/config/shop-schema';
import type { SimulatedCustomer } from './simulated-orders';
import type { ShopWebhookIdentity } from './webhook-deliveries';

export interface SimulatedShop {
  customers: SimulatedCustomer[];
  /** The shop's name, as its storefront shows it; default the shop id. */
  name?: string;
  /** Default `<shop id>.myshopify.com`. */
  shop_domain?: string;
  /** Default as in the configuration file: the client secret, else `<shop id>-webhook-secret`. */
  webhook_secret?: string;
  /** A Dev Dashboard app's credentials (both or neither): Admin API calls then need a token they were granted. */
  client_id?: string;
  client_secret?: string;
  /** ISO 4217 code of the shop's currency; default USD. */
  currency?: string;
}

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

export interface SimulatedShops {
  has(shopId: string): boolean;
  /** The shop's app credentials; null for a shop without client_id (no token checks). */
  credentials(shopId: string): ClientCredentials | null;
  /** The shops whose app has this client id. */
  shopsWithClientId(clientId: string): string[];
  identity(shopId: string): ShopWebhookIdentity;
  currency(shopId: string): string;
  /** The shop's name (its storefront's `shop.name`). */
  name(shopId: string): string;
  customer(shopId: string, customerId: string): SimulatedCustomer | undefined;
  /** The shop's customers in id order (none for an unknown shop). */
  customers(shopId: string): SimulatedCustomer[];
  /** Adds a customer to a shop (creating the shop with defaults if needed), replacing one with the same id. */
  addCustomer(shopId: string, customer: SimulatedCustomer): void;
}

interface ShopState {
  identity: ShopWebhookIdentity;
  credentials: ClientCredentials | null;
  currency: string;
  name: string;
  customers: Map<string, SimulatedCustomer>;
}

export function createSimulatedShops(shops: Record<string, SimulatedShop>): SimulatedShops {
  const states = new Map<string, ShopState>();
  const add = (shopId: string, shop: SimulatedShop): ShopState => {
    if ((shop.client_id === undefined) !== (shop.client_secret === undefined)) {
      throw new Error(`Shop '${shopId}': client_id and client_secret go together`);
    }
    const state: ShopState = {
      identity: {
        shop: shopId,
        domain: shop.shop_domain ?? defaultShopDomain(shopId),
        // A Dev Dashboard app signs its webhooks with its client secret.
        secret: shop.webhook_secret ?? shop.client_secret ?? defaultWebhookSecret(shopId),
      },
      credentials: shop.client_id && shop.client_secret ? { clientId: shop.client_id, clientSecret: shop.client_secret } : null,
      currency: shop.currency ?? 'USD',
      name: shop.name ?? shopId,
      customers: new Map(shop.customers.map((customer) => [customer.id, { ...customer }])),
    };
    states.set(shopId, state);
    return state;
  };
  for (const [shopId, shop] of Object.entries(shops)) add(shopId, shop);

  const state = (shopId: string): ShopState => {
    const found = states.get(shopId);
    if (!found) throw new Error(`The platform simulator has no shop '${shopId}'`);
    return found;
  };

  return {
    has: (shopId) => states.has(shopId),
    credentials: (shopId) => {
      const credentials = states.get(shopId)?.credentials;
      return credentials ? { ...credentials } : null;
    },
    shopsWithClientId: (clientId) => [...states].flatMap(([shopId, shop]) => (shop.credentials?.clientId === clientId ? [shopId] : [])),
    identity: (shopId) => ({ ...state(shopId).identity }),
    currency: (shopId) => state(shopId).currency,
    name: (shopId) => state(shopId).name,
    customer: (shopId, customerId) => states.get(shopId)?.customers.get(customerId),
    customers: (shopId) =>
      [...(states.get(shopId)?.customers.values() ?? [])].sort((a, b) => a.id.length - b.id.length || a.id.localeCompare(b.id)),
    addCustomer(shopId, customer) {
      (states.get(shopId) ?? add(shopId, { customers: [] })).customers.set(customer.id, { ...customer });
    },
  };
}
