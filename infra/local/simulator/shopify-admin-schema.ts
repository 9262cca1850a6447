// Builds the executable schema of the simulator from the SDL subset (shopify-admin-2026-10.graphql): the scalars
// get Shopify's input rules, so a float where a Decimal string belongs is refused as the real API refuses it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema, GraphQLError, type GraphQLSchema, GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { SHOPIFY_API_VERSION } from '../../../shared/platform/shopify-api-version';

export const SHOPIFY_ADMIN_SDL_FILE = join(__dirname, `shopify-admin-${SHOPIFY_API_VERSION}.graphql`);

const DECIMAL = /^-?\d+(?:\.\d+)?$/;
const UNSIGNED_INT64 = /^\d{1,20}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/;

type Check = (text: string) => boolean;

const checks: Record<string, { check: Check; describe: string }> = {
  Decimal: { check: (text) => DECIMAL.test(text), describe: 'a decimal written as a string, e.g. "29.99"' },
  UnsignedInt64: { check: (text) => UNSIGNED_INT64.test(text), describe: 'an unsigned 64-bit integer written as a string' },
  DateTime: { check: (text) => DATE_TIME.test(text) && !Number.isNaN(Date.parse(text)), describe: 'an ISO 8601 date and time' },
  URL: { check: (text) => URL.canParse(text), describe: 'an absolute URL' },
};

/** Input rules for a string scalar: the value must be a string and pass the check. */
function strictStringScalar(scalar: GraphQLScalarType, check: Check, describe: string): void {
  const parse = (value: unknown): string => {
    if (typeof value !== 'string' || !check(value)) {
      throw new GraphQLError(`${scalar.name} must be ${describe}; got ${JSON.stringify(value)}`);
    }
    return value;
  };
  scalar.parseValue = parse;
  scalar.parseLiteral = (node: ValueNode) => {
    if (node.kind !== Kind.STRING) throw new GraphQLError(`${scalar.name} must be ${describe}`, { nodes: node });
    return parse(node.value);
  };
}

// Codes in the runtime's currency list that Shopify's CurrencyCode lacks (Node 20 with ICU 78); the subset test
// (test/unit/admin-schema-subset.test.ts) names any other a newer runtime brings.
const NOT_SHOPIFY_CURRENCIES = new Set(['CUC', 'CUP', 'KPW', 'SLE', 'SVC', 'XCG', 'XDR', 'XSU', 'ZWG', 'ZWL']);

/** Shopify's CurrencyCode lists ISO 4217; the SDL transcribes the common codes, the runtime supplies the rest. */
function currencyExtension(sdl: string): string {
  const listed = new Set(/enum CurrencyCode \{([^}]*)\}/.exec(sdl)?.[1]?.match(/[A-Z]{3}/g) ?? []);
  const missing = Intl.supportedValuesOf('currency').filter(
    (code) => /^[A-Z]{3}$/.test(code) && !listed.has(code) && !NOT_SHOPIFY_CURRENCIES.has(code),
  );
  return missing.length > 0 ? `\nextend enum CurrencyCode {\n  ${missing.join('\n  ')}\n}\n` : '';
}

/** Gives the schema's Decimal, UnsignedInt64, DateTime and URL Shopify's input rules (the tests apply them to the real schema too). */
export function applyShopifyScalarRules(schema: GraphQLSchema): void {
  for (const [name, { check, describe }] of Object.entries(checks)) {
    const type = schema.getType(name);
    if (!(type instanceof GraphQLScalarType)) throw new Error(`The schema declares no scalar ${name}`);
    strictStringScalar(type, check, describe);
  }
}

let cached: GraphQLSchema | undefined;

export function shopifyAdminSchema(): GraphQLSchema {
  if (cached) return cached;
  const sdl = readFileSync(SHOPIFY_ADMIN_SDL_FILE, 'utf8');
  const schema = buildSchema(sdl + currencyExtension(sdl));
  applyShopifyScalarRules(schema);
  cached = schema;
  return schema;
}
