// The part of Shopify's search syntax the simulator understands for `orders(query:)`: date comparisons on
// updated_at, created_at and processed_at, joined by spaces or AND. Anything else is refused, not ignored,
// so a filter the adapter gets wrong fails a test instead of silently matching every order.

export type OrderDateField = 'updated_at' | 'created_at' | 'processed_at';

export interface OrderDateFilter {
  field: OrderDateField;
  operator: '>' | '>=' | '<' | '<=' | '=';
  /** Milliseconds since the epoch. */
  at: number;
}

const TERM = /^(updated_at|created_at|processed_at):(>=|<=|>|<|=)?(?:'([^']*)'|"([^"]*)"|(\S+))$/;
const TOKEN = /(?:[^\s'"]+|'[^']*'|"[^"]*")+/g;

/** The filters of a query string, or an error message saying which term is not understood. */
export function parseOrderSearchQuery(query: string | null | undefined): OrderDateFilter[] | string {
  const filters: OrderDateFilter[] = [];
  for (const token of (query ?? '').match(TOKEN) ?? []) {
    if (token === 'AND') continue;
    const match = TERM.exec(token);
    if (!match) return `The platform simulator does not support the search term '${token}'`;
    const text = match[3] ?? match[4] ?? match[5] ?? '';
    const at = Date.parse(text);
    if (Number.isNaN(at)) return `'${text}' in the search term '${token}' is not a date`;
    filters.push({ field: match[1] as OrderDateField, operator: (match[2] ?? '=') as OrderDateFilter['operator'], at });
  }
  return filters;
}

export function matchesDateFilter(value: string, filter: OrderDateFilter): boolean {
  const at = Date.parse(value);
  switch (filter.operator) {
    case '>':
      return at > filter.at;
    case '>=':
      return at >= filter.at;
    case '<':
      return at < filter.at;
    case '<=':
      return at <= filter.at;
    case '=':
      return at === filter.at;
  }
}
