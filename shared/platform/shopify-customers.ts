// The customer half of the Shopify adapter: one customer by id, mapped to the port's PlatformCustomer.
import type { PlatformCustomer } from './port';
import { customerGid, idFromGid } from './shopify-ids';
import type { ShopifyTransport } from './shopify-transport';

// `Customer.email` is deprecated since 2025-04; the default email address replaces it.
export const CUSTOMER_QUERY = `query GetCustomer($id: ID!) {
  customer(id: $id) { id firstName lastName createdAt defaultEmailAddress { emailAddress } }
}`;

interface CustomerData {
  customer: {
    id: string;
    firstName: string | null;
    lastName: string | null;
    createdAt: string | null;
    defaultEmailAddress: { emailAddress: string | null } | null;
  } | null;
}

export async function fetchShopifyCustomer(transport: ShopifyTransport, customerId: string): Promise<PlatformCustomer | null> {
  const data = await transport.request<CustomerData>('getCustomer', CUSTOMER_QUERY, { id: customerGid(customerId) });
  const customer = data.customer;
  if (!customer) return null;
  return {
    id: idFromGid(customer.id),
    email: customer.defaultEmailAddress?.emailAddress ?? '',
    firstName: customer.firstName ?? '',
    lastName: customer.lastName ?? '',
    createdAt: customer.createdAt ?? null,
  };
}
