// The member list's query (`GET /admin/api/members`, docs/admin.md#the-member-list): sort, filters and the
// cursor page, each refused with a 400 that says what is allowed.
import type { LoyaltyStatus } from '../domain/customer';
import type { VipTier } from '../domain/shop';
import { MEMBER_SORTS, type MemberBrowseQuery, type MemberSort } from '../data/member-browse';
import { badRequest } from '../http/errors';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, parseFilters, parseSort, positiveInteger } from '../http/query';

const MEMBER_FILTERS = ['loyalty_status', 'tier', 'name'] as const;
const PAGE_PARAMETERS = ['page[size]', 'page[cursor]'];

export function parseMemberBrowseQuery(query: Record<string, string>, tiers: readonly VipTier[]): MemberBrowseQuery {
  for (const name of Object.keys(query)) {
    if (name.startsWith('page[') && !PAGE_PARAMETERS.includes(name)) {
      throw badRequest(`Unknown parameter '${name}'. The member list pages with page[size] and page[cursor]`);
    }
  }
  const sort = parseSort<MemberSort>(query, MEMBER_SORTS, '-points');
  const filters = parseFilters(query, MEMBER_FILTERS);
  const status = filters.loyalty_status;
  if (status !== undefined && status !== 'member' && status !== 'excluded') {
    throw badRequest("filter[loyalty_status] must be 'member' or 'excluded'");
  }
  const tier = filters.tier;
  if (tier !== undefined && tier !== 'none' && !tiers.some((candidate) => candidate.id === tier)) {
    const known = ['none', ...tiers.map((candidate) => candidate.id)].join(', ');
    throw badRequest(`filter[tier] names no tier of this shop. Allowed: ${known}`);
  }
  const requested = query['page[size]'] === undefined ? DEFAULT_PAGE_SIZE : positiveInteger('page[size]', query['page[size]']);
  const cursor = query['page[cursor]'];
  if (cursor !== undefined && cursor.trim() === '') throw badRequest('page[cursor] is empty: leave it out for the first page');
  return {
    sort: sort.field,
    descending: sort.descending,
    ...(status ? { status: status as LoyaltyStatus } : {}),
    ...(tier !== undefined ? { tier } : {}),
    size: Math.min(requested, MAX_PAGE_SIZE),
    ...(cursor !== undefined ? { cursor } : {}),
  };
}

/** The longest `filter[name]` read. */
const MAX_NAME_QUERY = 200;

/** The search by name's query (`filter[name]`): the text, the page size and the cursor; no sort, no other filter. */
export function parseNameSearchQuery(query: Record<string, string>): { name: string; size: number; cursor?: string } {
  for (const name of Object.keys(query)) {
    if (name !== 'filter[name]' && (name === 'sort' || name.startsWith('filter['))) {
      throw badRequest(`filter[name] lists the matching members by name and takes no '${name}': leave it out`);
    }
    if (name.startsWith('page[') && !PAGE_PARAMETERS.includes(name)) {
      throw badRequest(`Unknown parameter '${name}'. The member list pages with page[size] and page[cursor]`);
    }
  }
  const text = query['filter[name]'] ?? '';
  if (text.length > MAX_NAME_QUERY) throw badRequest(`filter[name] is longer than ${MAX_NAME_QUERY} characters`);
  const requested = query['page[size]'] === undefined ? DEFAULT_PAGE_SIZE : positiveInteger('page[size]', query['page[size]']);
  const cursor = query['page[cursor]'];
  if (cursor !== undefined && cursor.trim() === '') throw badRequest('page[cursor] is empty: leave it out for the first page');
  return { name: text, size: Math.min(requested, MAX_PAGE_SIZE), ...(cursor !== undefined ? { cursor } : {}) };
}
