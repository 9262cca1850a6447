// The simulator's Admin GraphQL endpoint: every document is parsed and validated against the SDL subset
// and executed by graphql with the simulator's resolvers; failures come back in Shopify's error shape
// (`{ errors: [{ message, locations, extensions: { code } }] }`), with the query-cost extension on each answer.
// A shop with client credentials takes only the tokens the simulator granted it (simulated-oauth.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  execute,
  type DocumentNode,
  type FieldNode,
  getOperationAST,
  GraphQLError,
  Kind,
  type OperationDefinitionNode,
  parse,
  validate,
} from 'graphql';
import { shopifyAdminSchema } from './shopify-admin-schema';
import { INVALID_TOKEN_BODY, type SimulatedOAuth } from './simulated-oauth';
import { accessDeniedError, responseKey } from './simulator-access-denied';
import type { FaultArea, Faults } from './simulator-faults';
import { readBody, sendJson } from '../http-server';
import { createRootValue, type ResolverContext, type ResolverDeps } from './simulator-resolvers';

const AREAS: Record<string, FaultArea> = {
  customer: 'customers',
  customers: 'customers',
  nodes: 'customers',
  codeDiscountNodeByCode: 'discount_codes',
  discountCodeBasicCreate: 'discount_codes',
  discountCodeDelete: 'discount_codes',
  discountCodeFreeShippingCreate: 'discount_codes',
  storeCreditAccountCredit: 'store_credit',
  storeCreditAccountDebit: 'store_credit',
  // The order reads: the orders page of reconciliation and its follow-ups for lines and refunds.
  order: 'orders',
  orders: 'orders',
  refund: 'orders',
};

// A standard plan's bucket: 2 000 points, 100 restored per second.
const BUCKET = { maximumAvailable: 2000, restoreRate: 100 };

// graphql-js phrases its validation errors its own way; Shopify's codes name the same rules.
const VALIDATION_CODES: Array<[RegExp, string]> = [
  [/^Cannot query field/, 'undefinedField'],
  [/^Unknown argument/, 'argumentNotAccepted'],
  [/argument .* is required, but it was not provided/, 'missingRequiredArguments'],
  [/^Unknown type/, 'undefinedType'],
  [/^Variable .* used in position expecting/, 'variableMismatch'],
  [/^Variable .* is never used/, 'variableNotUsed'],
  [/^Variable .* is not defined/, 'undefinedVariable'],
  [/^Field .* must have a selection of subfields/, 'selectionMismatch'],
  [/^Field .* must not have a selection/, 'selectionMismatch'],
  [/^Fragment cannot be spread/, 'cannotSpreadFragment'],
];

type ShopifyError = {
  message: string;
  locations?: Array<{ line: number; column: number }>;
  path?: ReadonlyArray<string | number>;
  extensions: { code: string };
};

function shopifyError(error: GraphQLError, fallbackCode: string): ShopifyError {
  const code = typeof error.extensions?.code === 'string' ? error.extensions.code : fallbackCode;
  return {
    message: error.message,
    ...(error.locations ? { locations: error.locations.map(({ line, column }) => ({ line, column })) } : {}),
    ...(error.path ? { path: error.path } : {}),
    extensions: { code },
  };
}

function validationCode(error: GraphQLError): string {
  return VALIDATION_CODES.find(([pattern]) => pattern.test(error.message))?.[1] ?? 'GRAPHQL_VALIDATION_FAILED';
}

function rootFields(operation: OperationDefinitionNode): FieldNode[] {
  return operation.selectionSet.selections.filter((selection): selection is FieldNode => selection.kind === Kind.FIELD);
}

/** The document with the operation's root selections cut to `kept`: what runs beside the refused fields. */
function withRootSelections(document: DocumentNode, operation: OperationDefinitionNode, kept: readonly FieldNode[]): DocumentNode {
  const selections = operation.selectionSet.selections.filter((selection) => selection.kind !== Kind.FIELD || kept.includes(selection));
  const cut: OperationDefinitionNode = { ...operation, selectionSet: { ...operation.selectionSet, selections } };
  return { ...document, definitions: document.definitions.map((definition) => (definition === operation ? cut : definition)) };
}

/** Shopify's calculated cost, roughly: an object is 1, a connection `first` times its node, a mutation 10. */
function requestedCost(operation: OperationDefinitionNode, variables: Record<string, unknown>): number {
  let cost = 0;
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD) continue;
    if (operation.operation === 'mutation') {
      cost += 10;
      continue;
    }
    const firstArgument = selection.arguments?.find((argument) => argument.name.value === 'first')?.value;
    const first =
      firstArgument?.kind === Kind.INT
        ? Number(firstArgument.value)
        : firstArgument?.kind === Kind.VARIABLE
          ? Number(variables[firstArgument.name.value] ?? 0)
          : 0;
    cost += first > 0 ? 2 + first * 2 : 1;
  }
  return cost;
}

function costExtension(requested: number, actual: number | null, available: number) {
  return {
    cost: {
      requestedQueryCost: requested,
      actualQueryCost: actual,
      throttleStatus: { maximumAvailable: BUCKET.maximumAvailable, currentlyAvailable: available, restoreRate: BUCKET.restoreRate },
    },
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface CheckedDocument {
  document: DocumentNode | null;
  syntaxError: GraphQLError | null;
  invalid: readonly GraphQLError[];
}

// Clients send the same few documents over and over; parsing and validating each text once keeps a burst
// of requests (50 purchases at once in the saga tests) within the adapter's timeout.
const MAX_CACHED_DOCUMENTS = 200;
const checkedDocuments = new Map<string, CheckedDocument>();

function checkedDocument(query: string): CheckedDocument {
  const cached = checkedDocuments.get(query);
  if (cached) return cached;
  let checked: CheckedDocument;
  try {
    const document = parse(query);
    checked = { document, syntaxError: null, invalid: validate(shopifyAdminSchema(), document) };
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error;
    checked = { document: null, syntaxError: error, invalid: [] };
  }
  if (checkedDocuments.size >= MAX_CACHED_DOCUMENTS) checkedDocuments.delete(checkedDocuments.keys().next().value!);
  checkedDocuments.set(query, checked);
  return checked;
}

export function createGraphqlEndpoint(deps: ResolverDeps, faults: Faults, oauth: Pick<SimulatedOAuth, 'accepts'>) {
  const rootValue = createRootValue(deps);
  // Built now, at start-up, rather than by the first request, which would otherwise answer late.
  const schema = shopifyAdminSchema();

  return async (req: IncomingMessage, res: ServerResponse, shop: string): Promise<void> => {
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      return sendJson(res, 405, { errors: 'Method Not Allowed' });
    }
    if (!deps.shops.has(shop)) return sendJson(res, 404, { errors: 'Not Found' });
    const request = await readGraphqlRequest(req, res);
    if (!request) return;
    const { document, syntaxError, invalid } = checkedDocument(request.query);
    const operation = document ? getOperationAST(document, request.operationName) : null;
    const fields = operation ? rootFields(operation) : [];
    const modes = await settledModes(faults, fields, req);
    if (!modes) return;
    const modeOf = (wanted: string) => fields.some((field) => fieldMode(modes, field) === wanted);
    // An unreachable platform never answers, whatever the request carries.
    if (modeOf('unreachable')) return void req.socket.destroy();
    // A hung platform has read the request and never answers it; nothing of it runs.
    if (modeOf('hang')) return faults.hang(res);
    const token = req.headers['x-shopify-access-token'];
    if (!oauth.accepts(shop, typeof token === 'string' ? token : undefined)) return sendJson(res, 401, INVALID_TOKEN_BODY);
    if (syntaxError || !document) return sendJson(res, 200, { errors: [shopifyError(syntaxError!, 'syntaxError')] });

    if (invalid.length > 0) return sendJson(res, 200, { errors: invalid.map((error) => shopifyError(error, validationCode(error))) });
    if (!operation) {
      return sendJson(res, 200, {
        errors: [
          { message: 'An operation name is required when the document holds several', extensions: { code: 'OPERATION_NAME_REQUIRED' } },
        ],
      });
    }
    const run: OperationRun = { schema, rootValue, shop, modes, fields, document, operation, ...request };
    return runOperation(run, req, res);
  };
}

type FaultModesNow = ReturnType<Faults['current']>;

/** The fault mode of a root field's area; 'ok' for a field of no area. */
function fieldMode(modes: FaultModesNow, field: FieldNode) {
  const area = AREAS[field.name.value];
  return area ? modes[area] : 'ok';
}

/** The request's `{ query, variables, operationName }`, or null once a 400 answered a body that is not one. */
async function readGraphqlRequest(req: IncomingMessage, res: ServerResponse) {
  let request: unknown;
  try {
    request = JSON.parse(await readBody(req));
  } catch {
    sendJson(res, 400, { errors: 'Body must be JSON: { query, variables }' });
    return null;
  }
  if (!isRecord(request) || typeof request.query !== 'string') {
    sendJson(res, 400, { errors: 'Body must be { query, variables }' });
    return null;
  }
  return {
    query: request.query,
    variables: isRecord(request.variables) ? request.variables : {},
    operationName: typeof request.operationName === 'string' ? request.operationName : null,
  };
}

/** The fault modes the request runs under: a held request waits until its area's mode changes; null if it was dropped meanwhile. */
async function settledModes(faults: Faults, fields: FieldNode[], req: IncomingMessage): Promise<FaultModesNow | null> {
  let modes = faults.current();
  while (fields.some((field) => fieldMode(modes, field) === 'hold')) {
    await faults.held();
    if (req.socket.destroyed) return null;
    modes = faults.current();
  }
  return modes;
}

interface OperationRun {
  schema: ReturnType<typeof shopifyAdminSchema>;
  rootValue: ReturnType<typeof createRootValue>;
  shop: string;
  modes: FaultModesNow;
  fields: FieldNode[];
  document: DocumentNode;
  operation: OperationDefinitionNode;
  variables: Record<string, unknown>;
  operationName: string | null;
}

/** A valid operation under its fault modes: throttled, refused in part or whole, failed, or run and answered with its cost. */
async function runOperation(run: OperationRun, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { modes, fields, operation, document, variables } = run;
  const modeOf = (wanted: string) => fields.some((field) => fieldMode(modes, field) === wanted);
  const requested = requestedCost(operation, variables);
  if (modeOf('throttled')) {
    // One point short of the query's cost: the client waits 1 / restoreRate seconds and may retry.
    return sendJson(res, 200, {
      errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' } }],
      extensions: costExtension(requested, null, requested - 1),
    });
  }
  const denied = fields.filter((field) => fieldMode(modes, field) === 'access_denied');
  const allowed = fields.filter((field) => !denied.includes(field));
  if (denied.length > 0 && allowed.length === 0) {
    return sendJson(res, 200, {
      errors: denied.map(accessDeniedError),
      data: Object.fromEntries(denied.map((field) => [responseKey(field), null])),
    });
  }
  // Store credit's payloads have no internal-error user error: its error mode fails the whole request.
  if ((operation.operation === 'query' || fields.some((field) => AREAS[field.name.value] === 'store_credit')) && modeOf('error')) {
    return sendJson(res, 200, { errors: [{ message: 'Internal error', extensions: { code: 'INTERNAL_SERVER_ERROR' } }] });
  }

  // Refused fields are cut from the document, so they never run; the rest of it runs as usual.
  const runnable = denied.length > 0 ? withRootSelections(document, operation, allowed) : document;
  const context: ResolverContext = { shop: run.shop, faults: modes };
  const result = await execute({
    schema: run.schema,
    document: runnable,
    rootValue: run.rootValue,
    contextValue: context,
    variableValues: variables,
    operationName: run.operationName,
  });
  // A lost answer: what was asked is done, and the connection drops before the answer is sent.
  if (modeOf('lost_answer')) return void req.socket.destroy();
  // Errors without data are the variables' (coercion happens before any resolver runs).
  const fallbackCode = result.data === undefined ? 'INVALID_VARIABLE' : 'INTERNAL_SERVER_ERROR';
  const errors = [...(result.errors ?? []).map((error) => shopifyError(error, fallbackCode)), ...denied.map(accessDeniedError)];
  const data =
    result.data && denied.length > 0
      ? Object.fromEntries(fields.map((field) => [responseKey(field), denied.includes(field) ? null : result.data![responseKey(field)]]))
      : result.data;
  sendJson(res, 200, {
    ...(errors.length > 0 ? { errors } : {}),
    ...(data !== undefined ? { data } : {}),
    extensions: costExtension(requested, requested, BUCKET.maximumAvailable - requested),
  });
}
