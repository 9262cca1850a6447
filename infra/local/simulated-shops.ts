// The shops the simulator knows: their customers, the domain and webhook secret their deliveries carry, and
// the currency their orders are in. Defaults follow the configuration file's, so a test can name just customers.
import { defaultShopDomain, defaultWebhookSecret } from '../../shared/config/schema';
import type { SimulatedCustomer } from './simulated-orders';
import type { ShopWebhookIdentity } from './webhook-deliveries';

export interface SimulatedShop {
  customers: SimulatedCustomer[];
  /** Default `<shop id>.myshopify.com`. */
  shop_domain?: string;
  /** Default as in the configuration file: `<shop id>-webhook-secret`. */
  webhook_secret?: string;
  /** ISO 4217 code of the shop's currency; default USD. */
  currency?: string;
}

export interface SimulatedShops {
  has(shopId: string): boolean;
  identity(shopId: string): ShopWebhookIdentity;
  currency(shopId: string): string;
  customer(shopId: string, customerId: string): SimulatedCustomer | undefined;
  /** Adds a customer to a shop (creating the shop with defaults if needed), replacing one with the same id. */
  addCustomer(shopId: string, customer: SimulatedCustomer): void;
}

interface ShopState {
  identity: ShopWebhookIdentity;
  currency: string;
  customers: Map<string, SimulatedCustomer>;
}

export function createSimulatedShops(shops: Record<string, SimulatedShop>): SimulatedShops {
  const states = new Map<string, ShopState>();
  const add = (shopId: string, shop: SimulatedShop): ShopState => {
    const state: ShopState = {
      identity: {
        shop: shopId,
        domain: shop.shop_domain ?? defaultShopDomain(shopId),
        secret: shop.webhook_secret ?? defaultWebhookSecret(shopId),
      },
      currency: shop.currency ?? 'USD',
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
    identity: (shopId) => ({ ...state(shopId).identity }),
    currency: (shopId) => state(shopId).currency,
    customer: (shopId, customerId) => states.get(shopId)?.customers.get(customerId),
    addCustomer(shopId, customer) {
      (states.get(shopId) ?? add(shopId, { customers: [] })).customers.set(customer.id, { ...customer });
    },
  };
}
