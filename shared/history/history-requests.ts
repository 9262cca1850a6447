// Query options of the history list endpoints: page, sort and the one documented filter, filter[status].
import * as z from 'zod/mini';
import type { EarningHistoryQuery, HistoryQuery, RewardHistoryQuery } from '../data/history-repository';
import { badRequest } from '../http/errors';
import { type Page, parseFilters, parsePage, parseSort } from '../http/query';

export const EARNING_HISTORY_SORTS = ['created_at', 'points', 'points_given_at'] as const;
export const REWARD_HISTORY_SORTS = ['created_at', 'points_spent'] as const;

const earningStatus = z.enum(['pending', 'approved', 'rejected']);
// Only the statuses the spec names: internal saga statuses cannot be asked for either.
const rewardStatus = z.enum(['active', 'used', 'expired']);

const HISTORY_FILTERS = ['status'] as const;

export interface HistoryListRequest<Q> {
  page: Page;
  listQuery: Q;
}

function parseHistoryQuery<F extends string, S extends string>(
  query: Record<string, string>,
  sorts: readonly F[],
  statuses: z.ZodMiniEnum<{ [K in S]: K }>,
): HistoryListRequest<HistoryQuery<F, S>> {
  const page = parsePage(query);
  const sort = parseSort(query, sorts, '-created_at');
  const filters = parseFilters(query, HISTORY_FILTERS);
  let status: S | undefined;
  if (filters.status !== undefined) {
    const parsed = statuses.safeParse(filters.status);
    if (!parsed.success) {
      const names = statuses.options.map((option) => `'${option}'`);
      throw badRequest(`filter[status] must be ${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`);
    }
    status = parsed.data as S;
  }
  return {
    page,
    listQuery: {
      sort: sort.field,
      descending: sort.descending,
      ...(status ? { status } : {}),
      offset: page.offset,
      limit: page.size,
    },
  };
}

export function parseEarningHistoryQuery(query: Record<string, string>): HistoryListRequest<EarningHistoryQuery> {
  return parseHistoryQuery(query, EARNING_HISTORY_SORTS, earningStatus);
}

export function parseRewardHistoryQuery(query: Record<string, string>): HistoryListRequest<RewardHistoryQuery> {
  return parseHistoryQuery(query, REWARD_HISTORY_SORTS, rewardStatus);
}
