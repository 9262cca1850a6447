// The OpenAPI 3.1 document, generated from the route manifest and the zod schemas of requests and
// responses. A route without documentation here makes generation fail, so the two cannot drift.
import { z } from 'zod';
import { ROUTES, type Route } from '../http/routes';
import { enrollBodySchema, updateBodySchema } from '../customers/customer-requests';
import { adjustPointsBodySchema } from '../points/points-requests';
import { purchaseBodySchema } from '../purchases/purchase-requests';
import { RESPONSE_SCHEMAS, type ResponseSchemaName } from './response-schemas';

interface QueryParameter {
  name: string;
  description: string;
  schema: Record<string, unknown>;
}

interface RouteDoc {
  summary: string;
  query?: QueryParameter[];
  body?: z.core.$ZodType;
  /** Status -> response schema name ('Error' for the envelope). */
  responses: Record<number, ResponseSchemaName>;
}

const page: QueryParameter[] = [
  { name: 'page[number]', description: 'Page number, default 1', schema: { type: 'integer', minimum: 1 } },
  { name: 'page[size]', description: 'Page size, default 20, at most 100 (larger is served at 100)', schema: { type: 'integer', minimum: 1 } },
];
const sort = (fields: string[]): QueryParameter => ({
  name: 'sort',
  description: `One of ${fields.join(', ')}; prefix - for descending. Default -created_at`,
  schema: { type: 'string', enum: fields.flatMap((f) => [f, `-${f}`]) },
});
const filter = (name: string, description: string, schema: Record<string, unknown> = { type: 'string' }): QueryParameter => ({
  name: `filter[${name}]`,
  description,
  schema,
});
const excludeVip: QueryParameter = { name: 'exclude_vip', description: 'true: vip_tier is null and no tier lookup happens', schema: { type: 'string', enum: ['true', 'false'] } };

const WRITE_ERRORS = { 400: 'Error', 403: 'Error', 404: 'Error', 409: 'Error', 422: 'Error' } as const;

export const ROUTE_DOCS: Record<string, RouteDoc> = {
  listCustomers: {
    summary: 'List customers',
    query: [filter('email', 'Partial, case-insensitive e-mail match'), filter('loyalty_status', 'member or excluded', { type: 'string', enum: ['member', 'excluded'] }), sort(['created_at', 'points', 'lifetime_points', 'redeemed_points']), ...page],
    responses: { 200: 'CustomerList', 400: 'Error' },
  },
  enrollCustomer: { summary: 'Enroll a customer', body: enrollBodySchema, responses: { 201: 'Customer', 200: 'Customer', ...WRITE_ERRORS, 503: 'Error' } },
  getCustomer: { summary: 'Retrieve a customer by platform id or e-mail', query: [excludeVip], responses: { 200: 'Customer', 400: 'Error', 404: 'Error' } },
  updateCustomer: { summary: 'Update a customer', query: [excludeVip], body: updateBodySchema, responses: { 200: 'Customer', ...WRITE_ERRORS } },
  getCustomerBirthday: { summary: "A customer's date of birth", responses: { 200: 'CustomerBirthday', 404: 'Error' } },
  getCustomerAnniversary: { summary: "A customer's anniversary date", responses: { 200: 'CustomerAnniversary', 404: 'Error' } },
  adjustPoints: { summary: 'Add or deduct points', body: adjustPointsBodySchema, responses: { 200: 'PointsAdjustment', ...WRITE_ERRORS } },
  listEarningHistory: {
    summary: "A customer's earning history",
    query: [filter('status', 'pending, approved or rejected', { type: 'string', enum: ['pending', 'approved', 'rejected'] }), sort(['created_at', 'points', 'points_given_at']), ...page],
    responses: { 200: 'EarningHistoryList', 400: 'Error', 404: 'Error' },
  },
  getEarningHistoryEntry: { summary: 'One earning history entry', responses: { 200: 'EarningHistoryEntry', 404: 'Error' } },
  listRewardHistory: {
    summary: "A customer's reward history",
    query: [filter('status', 'active, used or expired', { type: 'string', enum: ['active', 'used', 'expired'] }), sort(['created_at', 'points_spent']), ...page],
    responses: { 200: 'RewardHistoryList', 400: 'Error', 404: 'Error' },
  },
  getRewardHistoryEntry: { summary: 'One reward history entry', responses: { 200: 'RewardHistoryEntry', 404: 'Error' } },
  listEarningRules: {
    summary: 'Earning rules, with points for an optional customer',
    query: [filter('is_active', 'true or false', { type: 'string', enum: ['true', 'false'] }), filter('customer_identifier', 'Platform customer id or e-mail'), sort(['created_at', 'name']), ...page],
    responses: { 200: 'EarningRuleList', 400: 'Error', 404: 'Error' },
  },
  listVipTiers: { summary: 'All VIP tiers, by threshold', responses: { 200: 'VipTierList' } },
  purchaseReward: { summary: 'Redeem a reward for a customer', body: purchaseBodySchema, responses: { 201: 'Purchase', ...WRITE_ERRORS, 500: 'Error', 503: 'Error' } },
};

function jsonSchema(schema: z.core.$ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, reused: 'inline', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function operation(route: Route, doc: RouteDoc) {
  const pathParameters = [...route.path.matchAll(/\{([^}]+)\}/g)].map((match) => ({
    name: match[1]!,
    in: 'path',
    required: true,
    description: match[1] === 'identifier' ? 'Platform customer id (numeric) or e-mail address' : 'Identifier',
    schema: { type: 'string' },
  }));
  const query = (doc.query ?? []).map((p) => ({ name: p.name, in: 'query', required: false, description: p.description, schema: p.schema }));
  const idempotency =
    route.scope === 'full'
      ? [{ name: 'Idempotency-Key', in: 'header', required: false, description: 'Retries with the same key and body return the first response', schema: { type: 'string', minLength: 1, maxLength: 255 } }]
      : [];
  const responses: Record<string, unknown> = {};
  const statuses: Record<number, ResponseSchemaName> = { ...doc.responses, 401: 'Error', 429: 'Error', 500: 'Error' };
  for (const [status, name] of Object.entries(statuses)) {
    responses[status] = { description: name === 'Error' ? 'Error envelope' : name, content: { 'application/json': { schema: ref(name) } } };
  }
  return {
    operationId: route.name,
    summary: doc.summary,
    security: [{ apiKey: [] }],
    parameters: [...pathParameters, ...query, ...idempotency],
    ...(doc.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(doc.body, 'input') } } } } : {}),
    responses,
    ...(route.throttle === 'strict' ? { 'x-rate-limit': '6 requests per second per key' } : {}),
  };
}

export function buildOpenApiDocument(routes: readonly Route[] = ROUTES) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const doc = ROUTE_DOCS[route.name];
    if (!doc) throw new Error(`Route ${route.name} has no OpenAPI documentation in shared/openapi/openapi-document.ts`);
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route, doc);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Loyalty API', version: '1.0.0', description: 'Loyalty program API: customers, points, rewards, earning rules, VIP tiers.' },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'The bare API key, no Bearer prefix' } },
      schemas: Object.fromEntries(Object.entries(RESPONSE_SCHEMAS).map(([name, schema]) => [name, jsonSchema(schema, 'output')])),
    },
    paths,
  };
}
