// Customers: the search by a name (`GET /members?filter[name]=…`, by the start of a first or last name word), a
// part of an e-mail (`GET /v1/customers?filter[email]=…`, case-insensitive), both at once, or a customer id
// (`GET /v1/customers/{id}`), and below it the member list to browse (MembersView.tsx). The
// results are links to each member's page; how many were found is said in a live region.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, get, type Document, type Resource } from './api';
import { ViewHeading } from './Heading';
import { MembersView } from './MembersView';
import { type Customer, customerName, formatPoints, statusWord } from './model';

type Results =
  { kind: 'idle' } | { kind: 'searching' } | { kind: 'failed'; message: string } | { kind: 'found'; query: string; customers: Customer[] };

const CUSTOMER_ID = /^\d{1,20}$/;

export async function searchCustomers(query: string): Promise<Customer[]> {
  if (CUSTOMER_ID.test(query)) {
    try {
      return [(await get<Document<Resource<Customer>>>(`/v1/customers/${query}`)).data.attributes];
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return [];
      throw error;
    }
  }
  // By e-mail and by name at once, each member once; a shop whose name index is not built yet finds by e-mail.
  const q = encodeURIComponent(query);
  const lists = await Promise.all([
    get<List>(`/v1/customers?filter[email]=${q}&page[size]=25`),
    get<List>(`/members?filter[name]=${q}&page[size]=25`).catch(() => ({ data: [] })),
  ]);
  const found = new Map(lists.flatMap((list) => list.data).map(({ attributes }) => [attributes.platform_customer_id, attributes]));
  return [...found.values()];
}

type List = Document<Array<Resource<Customer>>>;

export function SearchView({ initialQuery }: { initialQuery: string }) {
  const [query, setQuery] = useState(initialQuery);
  const [results, setResults] = useState<Results>({ kind: 'idle' });
  const run = (text: string) => {
    const trimmed = text.trim();
    if (trimmed === '') return;
    setResults({ kind: 'searching' });
    searchCustomers(trimmed).then(
      (customers) => setResults({ kind: 'found', query: trimmed, customers }),
      (error: unknown) => setResults({ kind: 'failed', message: error instanceof Error ? error.message : String(error) }),
    );
  };
  useEffect(() => {
    if (initialQuery) run(initialQuery);
  }, []);
  return (
    <section>
      <ViewHeading>Customers</ViewHeading>
      <form
        role="search"
        class="search"
        onSubmit={(event) => {
          event.preventDefault();
          history.replaceState(null, '', `#/customers?q=${encodeURIComponent(query.trim())}`);
          run(query);
        }}
      >
        <div class="field">
          <label for="search-query">Name, e-mail or customer id</label>
          <input
            id="search-query"
            type="search"
            required
            autoComplete="off"
            aria-describedby="search-hint"
            value={query}
            onInput={(event) => setQuery((event.target as HTMLInputElement).value)}
          />
          <p id="search-hint" class="hint">
            A first or last name or its start (such as “Ada” or “Love”), any part of an e-mail address (“ada.lovelace@”, “example.com”), or
            the customer’s id in Shopify.
          </p>
        </div>
        <button type="submit" class="primary">
          Search
        </button>
      </form>
      <div role="status" aria-live="polite" class="status">
        {results.kind === 'searching' && 'Searching…'}
        {results.kind === 'found' &&
          (results.customers.length === 0
            ? `No member matches “${results.query}”.`
            : `${results.customers.length} ${results.customers.length === 1 ? 'member matches' : 'members match'} “${results.query}”.`)}
      </div>
      {results.kind === 'failed' && (
        <p role="alert" class="error">
          The search failed: {results.message}
        </p>
      )}
      {results.kind === 'found' && results.customers.length > 0 && (
        <ul class="results" aria-label="Search results">
          {results.customers.map((customer) => (
            <li key={customer.platform_customer_id}>
              <a href={`#/customers/${encodeURIComponent(customer.platform_customer_id)}`}>
                <span class="name">{customerName(customer)}</span>
                <span class="muted">{customer.email}</span>
                <span>{formatPoints(customer.current_points)} points</span>
                {customer.vip_tier && <span class="badge tier">{customer.vip_tier.name}</span>}
                <span class={`badge ${customer.loyalty_status === 'excluded' ? 'critical' : 'success'}`}>
                  {statusWord(customer.loyalty_status)}
                </span>
              </a>
            </li>
          ))}
        </ul>
      )}
      <MembersView />
    </section>
  );
}
