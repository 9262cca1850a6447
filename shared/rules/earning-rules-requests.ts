// GET /v1/earning-rules query: page, sort and the two filters, validated at the edge.
import { badRequest } from '../http/errors';
import { type Page, parseFilters, parsePage, parseSort, type Sort } from '../http/query';

const SORTS = ['created_at', 'name'] as const;
const FILTERS = ['is_active', 'customer_identifier'] as const;

export interface EarningRulesQuery {
  page: Page;
  sort: Sort<(typeof SORTS)[number]>;
  /** Only active (true) or inactive (false) rules; undefined for all. */
  isActive: boolean | undefined;
  /** Points are computed for this customer (platform id or e-mail) when given. */
  customerIdentifier: string | undefined;
}

export function parseEarningRulesQuery(query: Record<string, string>): EarningRulesQuery {
  const page = parsePage(query);
  const sort = parseSort(query, SORTS, '-created_at');
  const filters = parseFilters(query, FILTERS);
  if (filters.is_active !== undefined && filters.is_active !== 'true' && filters.is_active !== 'false') {
    throw badRequest("filter[is_active] must be 'true' or 'false'");
  }
  return {
    page,
    sort,
    isActive: filters.is_active === undefined ? undefined : filters.is_active === 'true',
    customerIdentifier: filters.customer_identifier,
  };
}
