// The clients' answer types come from the server's schemas, and nowhere else: each type of
// shared/openapi/client-types.ts has the OpenAPI document's keys (checked by the TypeScript checker's own view of
// the type), the module declares no shape by hand, and no client file declares an answer's shape of its own.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { buildOpenApiDocument } from '../../shared/openapi/openapi-document';

const root = join(__dirname, '..', '..');
const MODULE = join(root, 'shared', 'openapi', 'client-types.ts');
const CLIENT_DIRS = [
  'infra/admin-ui/src',
  'infra/shopify-app/extensions/loyalty-account/src',
  'infra/shopify-app/extensions/loyalty-admin/src',
  'infra/shopify-app/extensions/loyalty-checkout/src',
  'infra/shopify-app/extensions/loyalty-pos/src',
];

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
};

const components = buildOpenApiDocument().components.schemas as Record<string, JsonSchema>;

/** The schema without its `null` alternative (a nullable object is `anyOf: [object, null]`). */
function nonNull(schema: JsonSchema): JsonSchema {
  const alternatives = (schema.anyOf ?? schema.oneOf ?? []).filter((alternative) => alternative.type !== 'null');
  return alternatives.length === 1 ? nonNull(alternatives[0]!) : schema;
}

/** Where a helper of the module points in a component: the body, its meta, its resource's attributes. */
function locate(helper: string, component: JsonSchema): JsonSchema | undefined {
  if (helper === 'AnswerBody') return component;
  if (helper === 'AnswerMeta') return component.properties?.meta;
  const data = component.properties?.data && nonNull(component.properties.data);
  const resource = data?.type === 'array' && data.items ? nonNull(data.items) : data;
  return resource?.properties?.attributes;
}

/** The keys an object type has (required ones marked), as the checker sees it; null when it is not one object. */
function typeKeys(checker: ts.TypeChecker, type: ts.Type): Map<string, { optional: boolean; type: ts.Type }> | null {
  const object = checker.getNonNullableType(type);
  if (object.isUnion() || !(object.flags & ts.TypeFlags.Object) || checker.isArrayType(object)) return null;
  const keys = new Map<string, { optional: boolean; type: ts.Type }>();
  for (const property of checker.getPropertiesOfType(object)) {
    const declaration = property.valueDeclaration ?? property.declarations?.[0];
    keys.set(property.name, {
      optional: (property.flags & ts.SymbolFlags.Optional) !== 0,
      type: declaration ? checker.getTypeOfSymbolAtLocation(property, declaration) : checker.getAnyType(),
    });
  }
  return keys;
}

/** Every difference between a type and a document schema, down through objects and arrays of objects. */
function differences(checker: ts.TypeChecker, type: ts.Type, schema: JsonSchema, path: string): string[] {
  const target = nonNull(schema);
  if (target.type === 'array' && target.items) {
    const element = checker.getNonNullableType(type);
    const item = checker.isArrayType(element) ? checker.getTypeArguments(element as ts.TypeReference)[0] : undefined;
    return item ? differences(checker, item, target.items, `${path}[]`) : [`${path}: the document has an array, the type none`];
  }
  if (!target.properties) return [];
  const keys = typeKeys(checker, type);
  if (!keys) return [];
  const found: string[] = [];
  const required = new Set(target.required ?? []);
  for (const [name, property] of Object.entries(target.properties)) {
    const key = keys.get(name);
    if (!key) found.push(`${path}.${name}: in the document, not in the type`);
    else {
      if (key.optional === required.has(name)) found.push(`${path}.${name}: ${key.optional ? 'optional' : 'required'} in the type only`);
      found.push(...differences(checker, key.type, property, `${path}.${name}`));
    }
  }
  for (const name of keys.keys()) if (!(name in target.properties)) found.push(`${path}.${name}: in the type, not in the document`);
  return found;
}

const HELPERS = new Set(['AnswerBody', 'AnswerMeta', 'AnswerAttributes']);

/** Each exported type alias of the module: the component and helper it names, or the exports it is built of. */
function moduleTypes() {
  const program = ts.createProgram([MODULE], {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    skipLibCheck: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(MODULE)!;
  const aliases = source.statements.filter(
    (statement): statement is ts.TypeAliasDeclaration =>
      ts.isTypeAliasDeclaration(statement) && (ts.getCombinedModifierFlags(statement) & ts.ModifierFlags.Export) !== 0,
  );
  return { checker, source, aliases };
}

/** Interfaces and object type literals of a source that declare fields of the service's answers. */
function handWrittenAnswerShapes(file: string, text: string, answerFields: ReadonlySet<string>): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isInterfaceDeclaration(node) || ts.isTypeLiteralNode(node)) {
      const fields = node.members
        .map((member) => (member.name && (ts.isIdentifier(member.name) || ts.isStringLiteral(member.name)) ? member.name.text : ''))
        .filter((name) => answerFields.has(name));
      if (fields.length > 0) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart());
        found.push(`${file}:${line + 1} declares ${fields.join(', ')}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The answers' own field names (snake_case, so no client's word such as `id`, `name` or `page` is one). */
function answerFieldNames(): Set<string> {
  const names = new Set<string>();
  const walk = (schema: JsonSchema | undefined): void => {
    if (!schema) return;
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      if (name.includes('_')) names.add(name);
      walk(property);
    }
    walk(schema.items);
    for (const alternative of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) walk(alternative);
  };
  for (const component of Object.values(components)) walk(component);
  return names;
}

function clientFiles(): string[] {
  return CLIENT_DIRS.flatMap((dir) =>
    readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
      .filter((name) => /\.tsx?$/.test(name) && !name.endsWith('.d.ts'))
      .map((name) => join(root, dir, name)),
  );
}

describe("the clients' answer types", () => {
  const { checker, source, aliases } = moduleTypes();

  it('are the OpenAPI document’s: each type of the module has its component’s keys, required and optional alike', () => {
    const checked: string[] = [];
    const drift: string[] = [];
    for (const alias of aliases) {
      const node = alias.type;
      if (!ts.isTypeReferenceNode(node) || !HELPERS.has(node.typeName.getText(source))) continue;
      const argument = node.typeArguments?.[0];
      const component = argument && ts.isLiteralTypeNode(argument) && ts.isStringLiteral(argument.literal) ? argument.literal.text : '';
      expect({ type: alias.name.text, component: components[component] ? component : 'none' }).toEqual({
        type: alias.name.text,
        component,
      });
      const schema = locate(node.typeName.getText(source), components[component]!);
      if (!schema) {
        drift.push(`${alias.name.text}: ${component} has no such part`);
        continue;
      }
      drift.push(...differences(checker, checker.getTypeAtLocation(alias.name), schema, alias.name.text));
      checked.push(alias.name.text);
    }
    expect(drift).toEqual([]);
    // The types the clients read, all checked.
    expect(checked).toEqual(
      expect.arrayContaining([
        'Customer',
        'ListedMember',
        'ProgramOverview',
        'StaffEarningHistoryEntry',
        'StaffRewardHistoryEntry',
        'ShopperProgram',
        'ShopperMember',
        'ActivityEntry',
        'ActivityListMeta',
        'MemberReward',
        'Redemption',
        'Estimate',
        'PointsAdjustment',
        'Purchase',
      ]),
    );
  });

  it('finds a type that disagrees with the document', () => {
    // The same walk over a hand-written type: a missing key, an extra key and a required key made optional.
    const file = join(root, 'shared', 'openapi', 'client-types.probe.ts');
    const host = ts.createCompilerHost({ strict: true, noEmit: true });
    const read = host.readFile.bind(host);
    host.readFile = (name) =>
      name === file
        ? 'export type Probe = { kind: string; points?: number; label: string; status: string; created_at: string; extra: 1 };'
        : read(name);
    host.fileExists = (
      (exists) => (name: string) =>
        name === file || exists(name)
    )(host.fileExists.bind(host));
    const program = ts.createProgram([file], { strict: true, noEmit: true }, host);
    const probeChecker = program.getTypeChecker();
    const probe = program.getSourceFile(file)!.statements[0] as ts.TypeAliasDeclaration;
    expect(
      differences(
        probeChecker,
        probeChecker.getTypeAtLocation(probe.name),
        locate('AnswerAttributes', components.ShopperActivityList!)!,
        'Probe',
      ),
    ).toEqual([
      'Probe.points: optional in the type only',
      'Probe.discount_code: in the document, not in the type',
      'Probe.extra: in the type, not in the document',
    ]);
  });

  it('declares no shape by hand: every type is inferred from the schemas, and the module imports types only', () => {
    const literals: string[] = [];
    const visit = (node: ts.Node): void => {
      if (ts.isTypeLiteralNode(node) || ts.isInterfaceDeclaration(node)) literals.push(node.getText(source).slice(0, 60));
      ts.forEachChild(node, visit);
    };
    aliases.filter((alias) => !alias.typeParameters).forEach(visit);
    expect(literals).toEqual([]);
    const imports = source.statements.filter(ts.isImportDeclaration);
    expect(imports.map((statement) => statement.importClause?.isTypeOnly === true)).toEqual(imports.map(() => true));
  });

  it('are the only answer shapes of the clients: no client file declares an answer’s fields of its own', () => {
    const fields = answerFieldNames();
    // Fields the clients send, not read: the estimate's cart lines.
    for (const sent of ['variant_id', 'gift_card']) fields.delete(sent);
    expect(fields.has('current_points')).toBe(true);
    const found = clientFiles().flatMap((file) => handWrittenAnswerShapes(relative(root, file), readFileSync(file, 'utf8'), fields));
    expect(found).toEqual([]);
  });

  it('catches a client that declares an answer’s shape again', () => {
    const fields = answerFieldNames();
    expect(
      handWrittenAnswerShapes('shopper-api.ts', 'export interface ActivityPage { entries: unknown[]; total_pages?: number }', fields),
    ).toEqual(['shopper-api.ts:1 declares total_pages']);
    expect(handWrittenAnswerShapes('x.ts', 'const a = body as { data?: { attributes?: { current_points?: unknown } } };', fields)).toEqual([
      'x.ts:1 declares current_points',
    ]);
  });

  it('reach the clients as types only, so nothing of zod or the server enters a bundle', () => {
    const valueImports = clientFiles().flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return [...text.matchAll(/^import\s+(type\s+)?[^;]*?from\s+'([^']+)'/gms)]
        .filter((match) => /shared\//.test(match[2]!) && !match[1])
        .map((match) => `${relative(root, file)}: ${match[2]}`);
    });
    expect(valueImports).toEqual([]);
  });
});
