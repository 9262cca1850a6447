// The payloads of the customer's lifecycle topics (customers/create, customers/update, customers/delete,
// customers/merge) as the fields the program follows. Shopify's customer ids pass 2^53 (its own sample is
// 706405506930370084), which a JSON number cannot hold exactly: the id is read from the GraphQL id string.
import * as z from 'zod/mini';
import { PlatformPayloadError, type PlatformCustomer } from './port';
import { parsePayload, timestamp } from './webhook-payload-fields';

const CUSTOMER_GID = /^gid:\/\/shopify\/Customer\/(\d{1,32})$/;

const customerGid = z.string().check(z.regex(CUSTOMER_GID, 'must be a customer id such as "gid://shopify/Customer/1001"'));

/** The numeric id of a customer payload: from `admin_graphql_api_id` (exact), else a safe JSON number or a string. */
function customerIdOf(payload: { admin_graphql_api_id?: string | null | undefined; id?: unknown }): string {
  if (payload.admin_graphql_api_id) return CUSTOMER_GID.exec(payload.admin_graphql_api_id)![1]!;
  const id = payload.id;
  if (typeof id === 'string' && /^\d{1,32}$/.test(id)) return id;
  if (typeof id === 'number' && Number.isSafeInteger(id) && id >= 0) return String(id);
  throw new PlatformPayloadError(['id: must be a customer id (admin_graphql_api_id missing, and id is not an exact integer)']);
}

const customerSchema = z.object({
  id: z.optional(z.unknown()),
  admin_graphql_api_id: z.optional(z.nullable(customerGid)),
  email: z.optional(z.nullable(z.string())),
  first_name: z.optional(z.nullable(z.string())),
  last_name: z.optional(z.nullable(z.string())),
  created_at: z.optional(z.nullable(timestamp)),
  updated_at: z.optional(z.nullable(timestamp)),
});

/** customers/create and customers/update: the customer as the platform now holds it. */
export function customerFromWebhook(payload: unknown): PlatformCustomer {
  const customer = parsePayload(customerSchema, payload);
  return {
    id: customerIdOf(customer),
    // Without protected customer data (level 2) Shopify leaves these out: they then read as empty.
    email: customer.email?.trim() ?? '',
    firstName: customer.first_name ?? '',
    lastName: customer.last_name ?? '',
    createdAt: customer.created_at ? new Date(customer.created_at).toISOString() : null,
  };
}

/** customers/update: the customer, and when the platform last changed it (deliveries arrive in any order). */
export function customerUpdateFromWebhook(payload: unknown): { customer: PlatformCustomer; updatedAt: string | null } {
  const customer = customerFromWebhook(payload);
  const updatedAt = (payload as { updated_at?: unknown }).updated_at;
  return { customer, updatedAt: typeof updatedAt === 'string' ? new Date(updatedAt).toISOString() : null };
}

/** customers/delete: only the id is sure to be there. */
export function deletedCustomerIdFromWebhook(payload: unknown): string {
  return customerIdOf(parsePayload(customerSchema, payload));
}

export interface CustomerMerge {
  keptId: string;
  deletedId: string;
  /** `completed` once Shopify has merged; other statuses (`failed`, in progress) change nothing. */
  status: string;
}

const mergeSchema = z.object({
  admin_graphql_api_customer_kept_id: customerGid,
  admin_graphql_api_customer_deleted_id: customerGid,
  status: z.string().check(z.minLength(1)),
});

export function customerMergeFromWebhook(payload: unknown): CustomerMerge {
  const merge = parsePayload(mergeSchema, payload);
  const keptId = CUSTOMER_GID.exec(merge.admin_graphql_api_customer_kept_id)![1]!;
  const deletedId = CUSTOMER_GID.exec(merge.admin_graphql_api_customer_deleted_id)![1]!;
  if (keptId === deletedId) throw new PlatformPayloadError(['admin_graphql_api_customer_deleted_id: is the kept customer']);
  return { keptId, deletedId, status: merge.status.toLowerCase() };
}
