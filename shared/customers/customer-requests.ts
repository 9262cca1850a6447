// Request bodies and query options of the customers endpoints.
import * as z from 'zod/mini';
import type { CustomerChanges } from '../domain/customer';
import { latestCalendarDateToday, nonexistentDateReason, parseCalendarDate } from '../domain/dates';
import { DOMAIN_DETAILS } from '../domain/errors';
import { badRequest } from '../http/errors';
import { parseBody } from '../http/validation';
import { parseFilters, parsePage, parseSort } from '../http/query';
import type { CustomerListQuery } from '../data/customer-list';
import type { LoyaltyStatus } from '../domain/customer';

export const enrollBodySchema = z.object({
  platform_customer_id: z
    .string({
      error: (issue) => (issue.input === undefined ? 'platform_customer_id is required' : 'platform_customer_id must be a string'),
    })
    .check(z.trim(), z.regex(/^\d{1,20}$/, { error: 'platform_customer_id must be a numeric platform customer ID' })),
});

const calendarDate = (field: string, options: { past?: boolean } = {}) =>
  z.pipe(
    z.union([z.string(), z.null()], { error: `${field} must be an ISO 8601 date (YYYY-MM-DD) or null` }),
    z.transform((value: string | null, ctx) => {
      if (value === null) return null;
      const date = parseCalendarDate(value.trim());
      if (date === null) {
        const reason = nonexistentDateReason(value.trim());
        const message = reason ? `${field}: ${reason}` : `${field} must be an ISO 8601 date (YYYY-MM-DD) or null`;
        ctx.issues.push({ code: 'custom', message, input: value });
        return z.NEVER;
      }
      if (options.past && date > latestCalendarDateToday()) {
        ctx.issues.push({ code: 'custom', message: `${field} cannot be in the future (${date})`, input: value });
        return z.NEVER;
      }
      return date;
    }),
  );

export const updateBodySchema = z.object({
  date_of_birth: z.optional(calendarDate('date_of_birth', { past: true })),
  anniversary_date: z.optional(calendarDate('anniversary_date')),
  is_excluded: z.optional(z.boolean({ error: 'is_excluded must be a boolean' })),
});

export function parseEnrollBody(body: unknown): string {
  return parseBody(enrollBodySchema, body).platform_customer_id;
}

/** Other fields are ignored, as the spec says; at least one updatable field must be present. */
export function parseUpdateBody(body: unknown): CustomerChanges {
  const parsed = parseBody(updateBodySchema, body);
  const changes: CustomerChanges = {};
  if (parsed.date_of_birth !== undefined) changes.date_of_birth = parsed.date_of_birth;
  if (parsed.anniversary_date !== undefined) changes.anniversary_date = parsed.anniversary_date;
  if (parsed.is_excluded !== undefined) changes.status = parsed.is_excluded ? 'excluded' : 'member';
  if (Object.keys(changes).length === 0) throw badRequest(DOMAIN_DETAILS.noUpdatableFields);
  return changes;
}

/** `exclude_vip=true` skips the tier; any other value is refused rather than silently ignored. */
export function parseExcludeVip(query: Record<string, string>): boolean {
  const value = query.exclude_vip;
  if (value === undefined) return false;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw badRequest("exclude_vip must be 'true'");
}

export const CUSTOMER_SORTS = ['created_at', 'points', 'lifetime_points', 'redeemed_points'] as const;
const CUSTOMER_FILTERS = ['email', 'loyalty_status'] as const;

export function parseCustomerListQuery(query: Record<string, string>) {
  const page = parsePage(query);
  const sort = parseSort(query, CUSTOMER_SORTS, '-created_at');
  const filters = parseFilters(query, CUSTOMER_FILTERS);
  const status = filters.loyalty_status;
  if (status !== undefined && status !== 'member' && status !== 'excluded') {
    throw badRequest("filter[loyalty_status] must be 'member' or 'excluded'");
  }
  const email = filters.email?.trim().toLowerCase();
  return {
    page,
    listQuery: {
      sort: sort.field,
      descending: sort.descending,
      ...(status ? { status: status as LoyaltyStatus } : {}),
      ...(email ? { emailContains: email } : {}),
      offset: page.offset,
      limit: page.size,
    } satisfies CustomerListQuery,
  };
}
