// Shopify's real Admin GraphQL schema for the adapter's API version, from the introspection result Shopify ships
// (test/fixtures/shopify-admin/README.md), with the simulator's strict scalar input rules: what the adapter sends
// is checked against the whole API rather than the simulator's hand-copied subset.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import {
  buildClientSchema,
  type DocumentNode,
  getNullableType,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  type GraphQLInputType,
  type GraphQLSchema,
  type IntrospectionQuery,
  isEnumType,
  isInputObjectType,
  isInputType,
  isListType,
  NoDeprecatedCustomRule,
  parse,
  typeFromAST,
  validate,
} from 'graphql';
import { applyShopifyScalarRules } from '../../infra/local/simulator/shopify-admin-schema';
import { SHOPIFY_API_VERSION } from '../../shared/platform/shopify-api-version';

export const REAL_ADMIN_SCHEMA_FILE = join(__dirname, '..', 'fixtures', 'shopify-admin', `admin_${SHOPIFY_API_VERSION}.json.gz`);

let cached: GraphQLSchema | undefined;

/** The real schema, read once per process (about 150 ms: gunzip, JSON.parse, buildClientSchema). */
export function realAdminSchema(): GraphQLSchema {
  if (cached) return cached;
  const introspection = JSON.parse(gunzipSync(readFileSync(REAL_ADMIN_SCHEMA_FILE)).toString('utf8')) as { data: IntrospectionQuery };
  const schema = buildClientSchema(introspection.data);
  applyShopifyScalarRules(schema);
  cached = schema;
  return schema;
}

function parsed(document: string): DocumentNode | string[] {
  try {
    return parse(document);
  } catch (error) {
    if (error instanceof GraphQLError) return [error.message];
    throw error;
  }
}

/** What the real API would refuse in the document (unknown fields, arguments, types, ...); empty when valid. */
export function validateDocument(document: string): string[] {
  const ast = parsed(document);
  if (Array.isArray(ast)) return ast;
  return validate(realAdminSchema(), ast).map((error) => error.message);
}

// NoDeprecatedCustomRule's messages, each to the schema coordinate it names (Type.field, Type.field(argument:)).
const DEPRECATION_MESSAGES: Array<[RegExp, (match: RegExpExecArray) => string]> = [
  [/^The field (\w+\.\w+) is deprecated/, (match) => match[1]!],
  [/^Field "(\w+\.\w+)" argument "(\w+)" is deprecated/, (match) => `${match[1]}(${match[2]}:)`],
  [/^Directive "@(\w+)" argument "(\w+)" is deprecated/, (match) => `@${match[1]}(${match[2]}:)`],
  [/^The input field (\w+\.\w+) is deprecated/, (match) => match[1]!],
  [/^The enum value "(\w+\.\w+)" is deprecated/, (match) => match[1]!],
];

function coordinateOf(message: string): string {
  for (const [pattern, coordinate] of DEPRECATION_MESSAGES) {
    const match = pattern.exec(message);
    if (match) return coordinate(match);
  }
  throw new Error(`Not a deprecation graphql reports: ${message}`);
}

/**
 * The deprecated fields, arguments, input fields and enum values the document itself uses, as schema
 * coordinates (`Order.referralCode`), sorted. Input sent in variables is not seen here: see deprecatedVariableUses.
 */
export function deprecatedUses(document: string): string[] {
  const ast = parsed(document);
  if (Array.isArray(ast)) throw new Error(`Not a GraphQL document: ${ast.join('; ')}`);
  const coordinates = validate(realAdminSchema(), ast, [NoDeprecatedCustomRule]).map((error) => coordinateOf(error.message));
  return [...new Set(coordinates)].sort();
}

/** Adds the deprecated input fields and enum values in a variable's value to `found`. */
function collectDeprecatedInput(type: GraphQLInputType, value: unknown, found: Set<string>): void {
  const nullable = getNullableType(type);
  if (value === null || value === undefined) return;
  if (isListType(nullable)) {
    for (const item of Array.isArray(value) ? value : [value]) collectDeprecatedInput(nullable.ofType as GraphQLInputType, item, found);
  } else if (isInputObjectType(nullable) && typeof value === 'object') {
    for (const [name, field] of Object.entries(nullable.getFields())) {
      if (!(name in value)) continue;
      if (field.deprecationReason) found.add(`${nullable.name}.${name}`);
      collectDeprecatedInput(field.type, (value as Record<string, unknown>)[name], found);
    }
  } else if (isEnumType(nullable)) {
    const enumValue = nullable.getValues().find((candidate) => candidate.name === value);
    if (enumValue?.deprecationReason) found.add(`${nullable.name}.${enumValue.name}`);
  }
}

/** The deprecated input fields and enum values the variables of a valid request carry, sorted. */
export function deprecatedVariableUses(document: string, variables: Record<string, unknown>, operationName?: string | null): string[] {
  const operation = getOperationAST(parse(document), operationName);
  const found = new Set<string>();
  for (const definition of operation?.variableDefinitions ?? []) {
    const type = typeFromAST(realAdminSchema(), definition.type);
    if (type && isInputType(type)) collectDeprecatedInput(type, variables[definition.variable.name.value], found);
  }
  return [...found].sort();
}

/**
 * What the real API would refuse in a whole request: the document, then the variables coerced against the
 * operation's variable definitions (a number where a Decimal string belongs, a missing required input field,
 * an unknown enum value or input field). Empty when valid.
 */
export function validateRequest(document: string, variables: Record<string, unknown> = {}, operationName?: string | null): string[] {
  const documentErrors = validateDocument(document);
  if (documentErrors.length > 0) return documentErrors;
  const ast = parse(document);
  const operation = getOperationAST(ast, operationName);
  if (!operation) return [operationName ? `No operation named "${operationName}"` : 'The document holds several operations and names none'];
  const coerced = getVariableValues(realAdminSchema(), operation.variableDefinitions ?? [], variables);
  return coerced.errors ? coerced.errors.map((error) => error.message) : [];
}

/** A GraphQL request body as a client posts it. */
export interface GraphqlRequestBody {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

/**
 * Throws, naming the operation and every problem, when the real API would refuse the request body or its
 * variables carry deprecated input. (Deprecations in the document itself are the documents test's concern.)
 */
export function assertValidRequest(body: GraphqlRequestBody, allowDeprecated: readonly string[] = []): void {
  const variables = body.variables ?? {};
  const errors = validateRequest(body.query, variables, body.operationName);
  if (errors.length === 0) {
    const deprecated = deprecatedVariableUses(body.query, variables, body.operationName).filter((used) => !allowDeprecated.includes(used));
    errors.push(...deprecated.map((coordinate) => `the variables send ${coordinate}, which is deprecated`));
  }
  if (errors.length === 0) return;
  const name = /^\s*(?:query|mutation)\s+(\w+)/.exec(body.query)?.[1] ?? 'an anonymous operation';
  throw new Error(`Shopify's Admin API ${SHOPIFY_API_VERSION} schema refuses ${name}:\n  ${errors.join('\n  ')}`);
}

/**
 * For a test file whose fake fetch stands in for Shopify: returns `check(body)`, which validates each request
 * body the adapter posts (deprecated input fields and enum values in its variables count as invalid unless
 * `allowDeprecated` names them), and makes every test fail in which a request was invalid. The failure is
 * raised after the test rather than from fetch, which the transport would take for a network error and
 * retry. Call it at the top level of the test file.
 */
export function checkRequestsAgainstRealSchema(allowDeprecated: readonly string[] = []): (body: unknown) => void {
  const refused: string[] = [];
  beforeAll(() => void realAdminSchema());
  afterEach(() => {
    const found = refused.splice(0);
    if (found.length > 0) throw new Error(found.join('\n'));
  });
  return (body) => {
    try {
      assertValidRequest(JSON.parse(String(body)) as GraphqlRequestBody, allowDeprecated);
    } catch (error) {
      refused.push((error as Error).message);
    }
  };
}

const PLATFORM_DIR = join(__dirname, '..', '..', 'shared', 'platform');

/** Every exported *_QUERY or *_MUTATION string of shared/platform/, by export name. */
export function adapterDocuments(): Array<[string, string]> {
  const found = new Map<string, string>();
  const modules = readdirSync(PLATFORM_DIR).filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'));
  for (const file of modules.sort()) {
    const exports = jest.requireActual<Record<string, unknown>>(join(PLATFORM_DIR, file));
    for (const [name, value] of Object.entries(exports)) {
      if (!/_(QUERY|MUTATION)$/.test(name) || typeof value !== 'string') continue;
      if (found.has(name) && found.get(name) !== value) throw new Error(`Two modules of shared/platform export different ${name}`);
      found.set(name, value);
    }
  }
  return [...found.entries()].sort(([a], [b]) => a.localeCompare(b));
}
