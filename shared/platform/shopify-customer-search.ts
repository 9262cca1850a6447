// Customers in bulk for the import of another app's export: by id through `nodes(ids:)` (up to 250 ids a
// call) and by e-mail through the `customers` search, several addresses OR-ed in one query. Shopify's
// `email` filter is tokenized, so each address is a phrase query and the answer is kept to exact
// (case-insensitive) matches. Throttling is the transport's: it waits as the reported cost says and retries.
import type { PlatformCustomer } from './port';
import { customerGid, idFromGid } from './shopify-ids';
import type { ShopifyTransport } from './shopify-transport';

/** Shopify's limit of ids per `nodes` call. */
export const MAX_IDS_PER_CALL = 250;
/** Addresses OR-ed in one search: short enough a query, and a page of 250 holds every match. */
export const EMAILS_PER_SEARCH = 50;
/** Customers per page of a search. */
export const SEARCH_PAGE = 250;

const CUSTOMER_FIELDS = 'id firstName lastName createdAt defaultEmailAddress { emailAddress }';

export const CUSTOMERS_BY_IDS_QUERY = `query CustomersByIds($ids: [ID!]!) {
  nodes(ids: $ids) { ... on Customer { ${CUSTOMER_FIELDS} } }
}`;

export const CUSTOMERS_BY_EMAIL_QUERY = `query CustomersByEmail($query: String!, $first: Int!, $after: String) {
  customers(first: $first, after: $after, query: $query) {
    nodes { ${CUSTOMER_FIELDS} }
    pageInfo { hasNextPage endCursor }
  }
}`;

interface CustomerNode {
  id?: string;
  firstName?: string | null;
  lastName?: string | null;
  createdAt?: string | null;
  defaultEmailAddress?: { emailAddress: string | null } | null;
}

function customerOf(node: CustomerNode): PlatformCustomer | null {
  if (!node.id || !node.id.startsWith('gid://shopify/Customer/')) return null;
  return {
    id: idFromGid(node.id),
    email: node.defaultEmailAddress?.emailAddress ?? '',
    firstName: node.firstName ?? '',
    lastName: node.lastName ?? '',
    createdAt: node.createdAt ?? null,
  };
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size));
  return out;
}

/** The customers of these numeric ids that exist, in no particular order. */
export async function fetchShopifyCustomersByIds(transport: ShopifyTransport, ids: readonly string[]): Promise<PlatformCustomer[]> {
  const found: PlatformCustomer[] = [];
  for (const batch of chunks([...new Set(ids)], MAX_IDS_PER_CALL)) {
    const data = await transport.request<{ nodes: Array<CustomerNode | null> }>('customersByIds', CUSTOMERS_BY_IDS_QUERY, {
      ids: batch.map(customerGid),
    });
    for (const node of data.nodes) {
      const customer = node ? customerOf(node) : null;
      if (customer) found.push(customer);
    }
  }
  return found;
}

/** `email:"a@example.com" OR email:"b@example.com"`: a phrase per address, its quotes and backslashes escaped. */
export function emailSearchQuery(emails: readonly string[]): string {
  return emails.map((email) => `email:"${email.replace(/[\\"]/g, (char) => `\\${char}`)}"`).join(' OR ');
}

/** The customers whose address is one of these (compared trimmed and lower-cased), in no particular order. */
export async function searchShopifyCustomersByEmails(transport: ShopifyTransport, emails: readonly string[]): Promise<PlatformCustomer[]> {
  const wanted = new Set(emails.map((email) => email.trim().toLowerCase()));
  const found = new Map<string, PlatformCustomer>();
  for (const batch of chunks([...wanted], EMAILS_PER_SEARCH)) {
    let after: string | null = null;
    do {
      type Page = { customers: { nodes: CustomerNode[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } };
      const data: Page = await transport.request<Page>('customersByEmail', CUSTOMERS_BY_EMAIL_QUERY, {
        query: emailSearchQuery(batch),
        first: SEARCH_PAGE,
        after,
      });
      for (const node of data.customers.nodes) {
        const customer = customerOf(node);
        if (customer && wanted.has(customer.email.trim().toLowerCase())) found.set(customer.id, customer);
      }
      after = data.customers.pageInfo.hasNextPage ? data.customers.pageInfo.endCursor : null;
    } while (after);
  }
  return [...found.values()];
}
