// `npm run structure`: figures of the tree's shape, for reviews of a reshaping: files and lines per folder,
// repositories that import another repository, the places that build a `tier.changed` event, the
// authorizer's bundle (bytes and modules), and the data layer's shape (issue 39): transaction sites,
// hand-set derived attributes, DynamoDB expressions outside shared/data, imports that run back up the
// feature order, and the largest data files; and the exports no other file imports (issue 50). The figures are read from the syntax tree (the TypeScript
// compiler's parser), so a comment or a type that names a command is no site. Prints a Markdown report;
// `--json` prints the figures as JSON.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, posix, relative, sep } from 'node:path';
import { build } from 'esbuild';
import ts from 'typescript';
import { lambdaBundleOptions } from '../bench/lambda-bundle';

const ROOT = join(__dirname, '..');

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

function lineCount(file: string): number {
  return readFileSync(file, 'utf8').split('\n').length - 1;
}

export interface FolderFigures {
  folder: string;
  files: number;
  lines: number;
}

/** Files and lines of every folder of shared/, functions/ and infra/. */
export function folderFigures(): FolderFigures[] {
  const folders = [
    ...readdirSync(join(ROOT, 'shared')).map((name) => `shared/${name}`),
    'functions',
    ...readdirSync(join(ROOT, 'infra')).map((name) => `infra/${name}`),
  ].filter((folder) => statSync(join(ROOT, folder)).isDirectory());
  return folders.map((folder) => {
    const files = tsFiles(join(ROOT, folder));
    return { folder, files: files.length, lines: files.reduce((sum, file) => sum + lineCount(file), 0) };
  });
}

const IMPORT = /from '([^']+)'/g;

/** A repository module: a data-layer file named `*-repository.ts`. */
function isRepository(path: string): boolean {
  return basename(path).replace(/\.ts$/, '').endsWith('-repository');
}

/** Each repository of shared/data with the repositories it imports. */
export function repositoryImports(): Array<{ repository: string; imports: string[] }> {
  return tsFiles(join(ROOT, 'shared', 'data'))
    .filter(isRepository)
    .map((file) => ({
      repository: relative(ROOT, file),
      imports: [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((match) => match[1]!).filter((target) => isRepository(target)),
    }))
    .filter((entry) => entry.imports.length > 0);
}

/** Object literals that build a `tier.changed` event (the event's type declaration is not one). */
export function tierChangedBuilders(): string[] {
  return tsFiles(join(ROOT, 'shared')).flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, index) => (/type: 'tier\.changed'(?!;)/.test(line) ? [`${relative(ROOT, file)}:${index + 1}`] : [])),
  );
}

export interface BundleShape {
  bytes: number;
  modules: number;
  projectModules: number;
  dataModules: string[];
}

/** The authorizer bundled as the stack bundles it, with the modules esbuild put in. */
export async function authorizerBundle(): Promise<BundleShape> {
  const result = await build({
    ...lambdaBundleOptions(),
    entryPoints: [join(ROOT, 'functions', 'auth', 'authorize.ts')],
    write: false,
    metafile: true,
    outfile: 'authorize.mjs',
  });
  const inputs = Object.keys(result.metafile.inputs);
  const project = inputs.filter((input) => !input.includes('node_modules/'));
  return {
    bytes: result.outputFiles.reduce((sum, file) => sum + file.contents.byteLength, 0),
    modules: inputs.length,
    projectModules: project.length,
    dataModules: project.filter((input) => input.startsWith('shared/data/')).sort(),
  };
}

/** A source file of the tree: its path from the repository's root (with `/`) and its text. */
export interface Source {
  path: string;
  text: string;
}

/** One place in a source file. */
export interface Place {
  file: string;
  line: number;
}

/** The `.ts` files under `folders` (paths from the root), with their text. */
export function sources(...folders: string[]): Source[] {
  return folders.flatMap((folder) =>
    tsFiles(join(ROOT, folder)).map((file) => ({ path: relative(ROOT, file).split(sep).join('/'), text: readFileSync(file, 'utf8') })),
  );
}

function syntaxOf(source: Source): ts.SourceFile {
  return ts.createSourceFile(source.path, source.text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}

function placeOf(file: ts.SourceFile, node: ts.Node): Place {
  return { file: file.fileName, line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1 };
}

/** Every node of the file, depth first. */
function eachNode(file: ts.SourceFile, visit: (node: ts.Node) => void): void {
  const walk = (node: ts.Node): void => {
    visit(node);
    ts.forEachChild(node, walk);
  };
  walk(file);
}

/** The name a property, call or constructor is known by in the source (`documentClient().send` → `send`). */
function nameOf(node: ts.Node | undefined): string | undefined {
  if (!node) return undefined;
  if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node) || ts.isStringLiteral(node)) return node.text;
  if (ts.isPropertyAccessExpression(node)) return node.name.text;
  return undefined;
}

/** The text a string literal or template holds (a template's substitutions read as `${}`). */
function literalText(node: ts.Node): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return [node.head.text, ...node.templateSpans.map((span) => '${}' + span.literal.text)].join('');
  return undefined;
}

/** A string literal or a whole template (a template's pieces are read through it; a literal inside `${…}` is its own). */
function isLiteral(node: ts.Node): boolean {
  return ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node);
}

// ---- transaction sites -------------------------------------------------------------------------------

/** The commands of DynamoDB's TransactWriteItems: the document client's and the low-level client's. */
const TRANSACTION_COMMANDS = new Set(['TransactWriteCommand', 'TransactWriteItemsCommand']);

/**
 * The places that build a TransactWriteItems request: `new TransactWriteCommand(…)` or
 * `new TransactWriteItemsCommand(…)` (an import, a type or a comment naming them is none).
 */
export function transactionSites(files: Source[]): Place[] {
  return files.flatMap((source) => {
    const file = syntaxOf(source);
    const places: Place[] = [];
    eachNode(file, (node) => {
      if (ts.isNewExpression(node) && TRANSACTION_COMMANDS.has(nameOf(node.expression) ?? '')) places.push(placeOf(file, node));
    });
    return places;
  });
}

// ---- the one commit path's shape (issue 50) --------------------------------------------------------------

/** DynamoDB's single-item write commands: the document client's and the low-level client's. */
const SINGLE_ITEM_WRITE_COMMANDS = new Set([
  'PutCommand',
  'UpdateCommand',
  'DeleteCommand',
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
]);
/** Where the table's raw writes are sent from: the one place allowed to build them. */
const TABLE_MODULE = 'shared/data/table.ts';

/**
 * The places outside `shared/data/table.ts` that build a single-item write: `new PutCommand(…)`,
 * `new UpdateCommand(…)`, `new DeleteCommand(…)` or the low-level client's `…ItemCommand` (an import, a
 * type or a comment naming them is none).
 */
export function rawSingleItemWrites(files: Source[]): Place[] {
  return files
    .filter((source) => source.path !== TABLE_MODULE)
    .flatMap((source) => {
      const file = syntaxOf(source);
      const places: Place[] = [];
      eachNode(file, (node) => {
        if (ts.isNewExpression(node) && SINGLE_ITEM_WRITE_COMMANDS.has(nameOf(node.expression) ?? '')) places.push(placeOf(file, node));
      });
      return places;
    });
}

/**
 * The places that write an update expression: an object property `UpdateExpression: …` whatever its value
 * (a literal, a template, a variable), so every builder of one counts once (a type's member, a read of the
 * property or a comment is none).
 */
export function updateExpressionSites(files: Source[]): Place[] {
  return files.flatMap((source) => {
    const file = syntaxOf(source);
    const places: Place[] = [];
    eachNode(file, (node) => {
      if ((ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node)) && nameOf(node.name) === 'UpdateExpression') {
        places.push(placeOf(file, node));
      }
    });
    return places;
  });
}

/** The declarations of a type, interface or class named `Refusal` (what a refused write means). */
export function refusalTypes(files: Source[]): Place[] {
  return files.flatMap((source) => {
    const file = syntaxOf(source);
    const places: Place[] = [];
    eachNode(file, (node) => {
      if (
        (ts.isTypeAliasDeclaration(node) || ts.isInterfaceDeclaration(node) || ts.isClassDeclaration(node)) &&
        node.name?.text === 'Refusal'
      ) {
        places.push(placeOf(file, node));
      }
    });
    return places;
  });
}

// ---- hand-set derived attributes ---------------------------------------------------------------------

/** The derived index attributes, by the index they put an item in. */
const DERIVED: Record<string, 'due work' | 'unsettled purchases'> = {
  due_pk: 'due work',
  due_at: 'due work',
  unsettled_pk: 'unsettled purchases',
};
/** The item modules' helpers that derive them; spreading their result into a write sets them by hand. */
const DERIVE_HELPERS = new Set(['dueAttributes', 'unsettledAttributes']);
/** Where the derivation belongs: the item modules. */
const ITEM_MODULES = 'shared/data/items/';

export interface HandSetAttribute extends Place {
  /** The index whose attributes the place writes. */
  index: 'due work' | 'unsettled purchases';
  /** How: `update expression`, `expression parts`, `item update`, `object key`, `derive spread` or `dropped`. */
  how: string;
}

/** Derived attributes named as bare names (not `#name` or `:value` placeholders) in an expression's text. */
function bareDerivedNames(text: string): string[] {
  return Object.keys(DERIVED).filter((attribute) => new RegExp(`(?<![#:.\\w])${attribute}(?!\\w)`).test(text));
}

/** The nearest enclosing statement or object property: one write site. */
function siteOf(node: ts.Node): ts.Node {
  let current: ts.Node = node;
  while (current.parent && !ts.isPropertyAssignment(current) && !(ts.isStatement(current) && !ts.isBlock(current)))
    current = current.parent;
  return current;
}

/** The property (`UpdateExpression`, `set`, `remove`…) whose value `node` is part of, if any before the statement. */
function enclosingPropertyName(node: ts.Node): string | undefined {
  const site = siteOf(node);
  return ts.isPropertyAssignment(site) ? nameOf(site.name) : undefined;
}

/** The array an enclosing `array.push(…)` call adds to (`sets`, `removes`), if any before the statement. */
function enclosingPushTarget(node: ts.Node): string | undefined {
  for (let current: ts.Node | undefined = node.parent; current && current !== siteOf(node).parent; current = current.parent) {
    if (ts.isCallExpression(current) && ts.isPropertyAccessExpression(current.expression) && current.expression.name.text === 'push') {
      return nameOf(current.expression.expression);
    }
  }
  return undefined;
}

/**
 * Writes of a derived index attribute (`due_pk`, `due_at`, `unsettled_pk`) outside the item modules
 * (`shared/data/items/`), whose derive functions should be the only writers. A write is one of:
 * - `update expression`: the attribute as a bare name in the text of an `UpdateExpression` property's value,
 *   or in a string with a `SET` or `REMOVE` clause naming it;
 * - `expression parts`: its name as a string literal inside `sets.push(…)` / `removes.push(…)` (an
 *   update expression assembled from parts), or in the value of a `set` or `remove` property (an item
 *   update handed to a repository);
 * - `object key`: an object literal with a property of that name (`{ due_pk, due_at }`);
 * - `derive spread`: the result of a derive helper (`dueAttributes(…)`, `unsettledAttributes(…)`) spread into
 *   an object, beside the item module's own item;
 * - `dropped`: an object destructuring with a rest element that binds the attribute (the rest is written
 *   without it).
 * Reads are not writes: conditions, key conditions, property reads (`item.due_pk`), index definitions.
 * One site is the nearest enclosing statement or object property, counted once per index it writes.
 */
export function handSetDerivedAttributes(files: Source[]): HandSetAttribute[] {
  return files
    .filter((source) => !source.path.startsWith(ITEM_MODULES))
    .flatMap((source) => {
      const file = syntaxOf(source);
      const sites = new Map<string, HandSetAttribute>();
      const record = (node: ts.Node, attributes: string[], how: string): void => {
        const site = siteOf(node);
        for (const attribute of attributes) {
          const index = DERIVED[attribute]!;
          const key = `${site.pos}:${index}`;
          if (!sites.has(key)) sites.set(key, { ...placeOf(file, node), index, how });
        }
      };
      eachNode(file, (node) => {
        if (isLiteral(node)) {
          const text = literalText(node)!;
          const named = bareDerivedNames(text);
          if (named.length === 0) return;
          const property = enclosingPropertyName(node);
          const push = enclosingPushTarget(node);
          if (property === 'UpdateExpression' || /\b(SET|REMOVE)\b/.test(text)) record(node, named, 'update expression');
          else if (named.includes(text) && (/^(set|remove)$/i.test(property ?? '') || /^(sets|removes)$/i.test(push ?? ''))) {
            record(node, named, 'expression parts');
          }
        } else if ((ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node)) && ts.isObjectLiteralExpression(node.parent)) {
          const name = nameOf(node.name);
          if (name && DERIVED[name]) record(node.parent, [name], 'object key');
        } else if (
          ts.isSpreadAssignment(node) &&
          ts.isCallExpression(node.expression) &&
          DERIVE_HELPERS.has(nameOf(node.expression.expression) ?? '')
        ) {
          const helper = nameOf(node.expression.expression)!;
          record(node, [helper === 'dueAttributes' ? 'due_pk' : 'unsettled_pk'], 'derive spread');
        } else if (ts.isObjectBindingPattern(node) && node.elements.some((element) => element.dotDotDotToken)) {
          const dropped = node.elements.flatMap((element) => {
            const name = nameOf(element.propertyName ?? element.name);
            return !element.dotDotDotToken && name && DERIVED[name] ? [name] : [];
          });
          if (dropped.length > 0) record(node, dropped, 'dropped');
        }
      });
      return [...sites.values()].sort((a, b) => a.line - b.line);
    });
}

// ---- expressions outside shared/data -----------------------------------------------------------------

/** The request properties that hold a DynamoDB expression. */
const EXPRESSION_PROPERTIES = new Set([
  'ConditionExpression',
  'UpdateExpression',
  'KeyConditionExpression',
  'FilterExpression',
  'ProjectionExpression',
]);
/**
 * DynamoDB expression syntax in a string: a name or `#name` compared with or set to a `:value` or `#name`
 * (`#due_pk = :duePk`, `status <> :member`), arithmetic on a `:value` (`current_points - :points`), or one of
 * the expression functions (`attribute_exists(…)`, `if_not_exists(…)`…).
 */
const EXPRESSION_SYNTAX = [
  /(^|[\s(])#?[A-Za-z_][\w.[\]#]*\s*(=|<>|<=|>=|<|>)\s*[:#][A-Za-z_]\w*/,
  /(^|[\s(])#?[A-Za-z_][\w.]*\s*[-+]\s*:[A-Za-z_]\w*/,
  /\b(attribute_exists|attribute_not_exists|attribute_type|begins_with|if_not_exists|list_append)\s*\(/,
];

export interface ExpressionString extends Place {
  text: string;
}

/**
 * DynamoDB condition or update expressions written outside `shared/data`: every string literal or template
 * that is the value of a `ConditionExpression`, `UpdateExpression`, `KeyConditionExpression`,
 * `FilterExpression` or `ProjectionExpression` property, or whose text has expression syntax (see
 * `EXPRESSION_SYNTAX`). One literal is one place; comments never count.
 */
export function expressionsOutsideData(files: Source[]): ExpressionString[] {
  return files
    .filter((source) => !source.path.startsWith('shared/data/'))
    .flatMap((source) => {
      const file = syntaxOf(source);
      const places: ExpressionString[] = [];
      eachNode(file, (node) => {
        if (!isLiteral(node)) return;
        const text = literalText(node)!;
        const parent = node.parent;
        const asProperty =
          ts.isPropertyAssignment(parent) && parent.initializer === node && EXPRESSION_PROPERTIES.has(nameOf(parent.name) ?? '');
        if (asProperty || EXPRESSION_SYNTAX.some((syntax) => syntax.test(text))) places.push({ ...placeOf(file, node), text });
      });
      return places;
    });
}

// ---- arrows that run back up ---------------------------------------------------------------------------

/** The feature folders from the bottom up, as lint declares them (`FEATURE_ORDER` in eslint.config.mjs). */
export function featureOrder(): string[] {
  const config = ts.createSourceFile(
    'eslint.config.mjs',
    readFileSync(join(ROOT, 'eslint.config.mjs'), 'utf8'),
    ts.ScriptTarget.Latest,
    true,
    ts.ScriptKind.JS,
  );
  let order: string[] | undefined;
  eachNode(config, (node) => {
    if (
      ts.isVariableDeclaration(node) &&
      nameOf(node.name) === 'FEATURE_ORDER' &&
      node.initializer &&
      ts.isArrayLiteralExpression(node.initializer)
    ) {
      order = node.initializer.elements.map((element) => {
        if (!ts.isStringLiteral(element)) throw new Error('FEATURE_ORDER in eslint.config.mjs must list folder names as strings');
        return element.text;
      });
    }
  });
  if (!order) throw new Error('eslint.config.mjs declares no FEATURE_ORDER');
  return order;
}

export interface BackUpArrow extends Place {
  /** The importing file's feature folder and the folder it imports, which sits above it in the order. */
  from: string;
  to: string;
  imported: string;
}

/** The module paths a file names in its imports and re-exports, `import(…)` and `require(…)` included. */
function moduleReferences(file: ts.SourceFile): Array<{ node: ts.Node; specifier: string }> {
  const references: Array<{ node: ts.Node; specifier: string }> = [];
  eachNode(file, (node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      references.push({ node, specifier: node.moduleSpecifier.text });
    } else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword || nameOf(node.expression) === 'require')
    ) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteral(argument)) references.push({ node, specifier: argument.text });
    }
  });
  return references;
}

/** The feature folder of `shared/<folder>/…`, if the path is in one of `order`. */
function featureOf(path: string, order: string[]): string | undefined {
  const match = /^shared\/([^/]+)\//.exec(path);
  return match && order.includes(match[1]!) ? match[1] : undefined;
}

/** Imports from one feature folder into a folder above it in `order` (bottom first): arrows that run back up. */
export function backUpArrows(files: Source[], order: string[] = featureOrder()): BackUpArrow[] {
  return files.flatMap((source) => {
    const from = featureOf(source.path, order);
    if (!from) return [];
    const file = syntaxOf(source);
    return moduleReferences(file).flatMap(({ node, specifier }) => {
      if (!specifier.startsWith('.')) return [];
      const imported = posix.join(posix.dirname(source.path), specifier);
      const to = featureOf(imported, order);
      return to && to !== from && order.indexOf(to) > order.indexOf(from) ? [{ ...placeOf(file, node), from, to, imported }] : [];
    });
  });
}

// ---- the largest data files ----------------------------------------------------------------------------

/** The `count` largest files of `shared/data` (its item modules included), by lines. */
export function largestDataFiles(count = 5): Array<{ file: string; lines: number }> {
  return sources('shared/data')
    .map((source) => ({ file: source.path, lines: source.text.split('\n').length - 1 }))
    .sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file))
    .slice(0, count);
}

// ---- exports used nowhere -------------------------------------------------------------------------------

/** The folders whose exports must each be imported somewhere, and the parts of them left to their own builds. */
export const EXPORTING_FOLDERS = ['shared', 'functions', 'infra'];
const OWN_BUILDS = ['infra/local/simulator/', 'infra/shopify-app/'];
/** The folders whose files may import them: the tree, its tests, benches and scripts. */
const IMPORTING_FOLDERS = ['shared', 'functions', 'infra', 'test', 'bench', 'scripts', 'config'];
/** Files run, not imported: the CDK app, the CLI, the twin's and DynamoDB Local's mains, the admin UI's page. */
export const ENTRY_FILES = new Set([
  'infra/cdk/app.ts',
  'infra/cli/main.ts',
  'infra/local/main.ts',
  'infra/local/dynamodb-main.ts',
  'infra/admin-ui/src/main.tsx',
]);
/**
 * What the manifest's paths take from a function's module: Lambda's `handler`, and a scheduled job's `run` (the
 * twin's POST /_jobs/run) and `job` (named as the manifest names it).
 */
const HANDLER_EXPORTS = new Set(['handler', 'run', 'job']);

export interface UnusedExport extends Place {
  name: string;
}

const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.mjs', '.js', '.cjs'];

/** The source files under `folders`, any extension the tree uses (declarations left out). */
export function allSources(...folders: string[]): Source[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      if (name === 'node_modules' || name === 'dist' || name === 'cdk.out') return [];
      if (statSync(path).isDirectory()) return walk(path);
      return SOURCE_EXTENSIONS.some((extension) => name.endsWith(extension)) && !name.endsWith('.d.ts') ? [path] : [];
    });
  return folders.flatMap((folder) =>
    walk(join(ROOT, folder)).map((file) => ({ path: relative(ROOT, file).split(sep).join('/'), text: readFileSync(file, 'utf8') })),
  );
}

const hasExportModifier = (node: ts.Node) =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);

/** The names a module exports by name, each with its declaration (`export * from` names none of its own). */
function exportedNames(file: ts.SourceFile): Array<{ name: string; node: ts.Node }> {
  return file.statements.flatMap((statement): Array<{ name: string; node: ts.Node }> => {
    if (ts.isExportAssignment(statement)) return [{ name: 'default', node: statement }];
    if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause;
      return clause && ts.isNamedExports(clause) ? clause.elements.map((element) => ({ name: element.name.text, node: element })) : [];
    }
    if (!hasExportModifier(statement)) return [];
    const isDefault = (ts.getModifiers(statement as ts.HasModifiers) ?? []).some(
      (modifier) => modifier.kind === ts.SyntaxKind.DefaultKeyword,
    );
    if (isDefault) return [{ name: 'default', node: statement }];
    if (ts.isVariableStatement(statement)) {
      return statement.declarationList.declarations.flatMap((declaration) =>
        ts.isIdentifier(declaration.name) ? [{ name: declaration.name.text, node: declaration }] : [],
      );
    }
    const name = (statement as { name?: ts.Node }).name;
    return name && ts.isIdentifier(name) ? [{ name: name.text, node: statement }] : [];
  });
}

/** How often each identifier occurs in the file (its declaration included). */
function identifierCounts(file: ts.SourceFile): Map<string, number> {
  const counts = new Map<string, number>();
  eachNode(file, (node) => {
    if (ts.isIdentifier(node)) counts.set(node.text, (counts.get(node.text) ?? 0) + 1);
  });
  return counts;
}

/**
 * Whether the module uses an export itself: its name occurs beyond its declaration (for `export { a as b }`, the
 * local `a` beyond its declaration and the specifier; a re-export `export { a } from` has no use in the module).
 */
function usedInItsModule(name: string, node: ts.Node, counts: Map<string, number>): boolean {
  if (!ts.isExportSpecifier(node)) return (counts.get(name) ?? 0) > 1;
  if (node.parent.parent.moduleSpecifier) return false;
  return (counts.get((node.propertyName ?? node.name).text) ?? 0) > 2;
}

/** The file a relative module path names from `importer`, if it is one of `known`. */
function resolveModule(importer: string, specifier: string, known: Set<string>): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = posix.join(posix.dirname(importer), specifier);
  const stem = base.replace(/\.(m|c)?js$/, '');
  const candidates = [
    base,
    ...SOURCE_EXTENSIONS.map((extension) => stem + extension),
    ...['.ts', '.tsx'].map((extension) => `${base}/index${extension}`),
  ];
  return candidates.find((candidate) => known.has(candidate));
}

/** What each importing file takes from each module: named exports, or every export (`*`: a namespace, `import()`, `require`, `export *`). */
function importedNames(sourcesToRead: Source[], known: Set<string>): Map<string, Set<string>> {
  const used = new Map<string, Set<string>>();
  const take = (target: string | undefined, name: string) => {
    if (!target) return;
    if (!used.has(target)) used.set(target, new Set());
    used.get(target)!.add(name);
  };
  for (const source of sourcesToRead) {
    const file = syntaxOf(source);
    eachNode(file, (node) => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
        const target = resolveModule(source.path, node.moduleSpecifier.text, known);
        const clause = node.importClause;
        if (clause?.name) take(target, 'default');
        const bindings = clause?.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) take(target, '*');
        if (bindings && ts.isNamedImports(bindings))
          for (const element of bindings.elements) take(target, (element.propertyName ?? element.name).text);
      } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
        const target = resolveModule(source.path, node.moduleSpecifier.text, known);
        const clause = node.exportClause;
        if (!clause || !ts.isNamedExports(clause)) take(target, '*');
        else for (const element of clause.elements) take(target, (element.propertyName ?? element.name).text);
      } else if (ts.isCallExpression(node)) {
        const [argument] = node.arguments;
        const callee = node.expression.kind === ts.SyntaxKind.ImportKeyword ? 'import' : nameOf(node.expression);
        if (argument && ts.isStringLiteral(argument) && ['import', 'require', 'requireActual'].includes(callee ?? '')) {
          take(resolveModule(source.path, argument.text, known), '*');
        }
      } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
        const expression = node.moduleReference.expression;
        if (ts.isStringLiteral(expression)) take(resolveModule(source.path, expression.text, known), '*');
      }
    });
  }
  return used;
}

/**
 * Exports no other file imports: each named export of a module under `exporting` that no file of `importing`
 * names (by name, or all of the module's through a namespace, `import()`, `require` or `export *`). Left out:
 * what Lambda takes from a function's module (`handler`, and a job's `run`) and the files run, not imported
 * (`ENTRY_FILES`), and exports the module itself uses (a type its exported functions take, a constant its code
 * reads): those are part of what it offers, not dead code.
 */
export function unusedExports(exporting: Source[], importing: Source[], entryFiles: ReadonlySet<string> = ENTRY_FILES): UnusedExport[] {
  const known = new Set([...exporting, ...importing].map((source) => source.path));
  const used = importedNames(importing, known);
  return exporting
    .filter((source) => !entryFiles.has(source.path))
    .flatMap((source) => {
      const file = syntaxOf(source);
      const taken = used.get(source.path) ?? new Set<string>();
      if (taken.has('*')) return [];
      const ownUses = identifierCounts(file);
      return exportedNames(file)
        .filter(({ name }) => !taken.has(name) && !(source.path.startsWith('functions/') && HANDLER_EXPORTS.has(name)))
        .filter(({ name, node }) => !usedInItsModule(name, node, ownUses))
        .map(({ name, node }) => ({ ...placeOf(file, node), name }));
    });
}

/** The tree's exports used nowhere: `unusedExports` over shared/, functions/ and infra/ (the simulator and the Shopify app have their own builds). */
export function treeUnusedExports(): UnusedExport[] {
  const importing = allSources(...IMPORTING_FOLDERS);
  const exporting = importing.filter(
    (source) =>
      EXPORTING_FOLDERS.some((folder) => source.path.startsWith(`${folder}/`)) && !OWN_BUILDS.some((own) => source.path.startsWith(own)),
  );
  return unusedExports(exporting, importing);
}

// ---- deterministic ids -----------------------------------------------------------------------------------

/** The one module that derives a deterministic id (a digest written as an id or a code). */
export const ID_HELPER = 'shared/domain/deterministic-id.ts';
const ID_HELPER_FUNCTIONS = new Set(['deterministicId', 'deterministicShard']);

/**
 * Where ids and codes are hashed: `byHand`, every `createHash(…)` call outside the helper module (a digest
 * built and formatted in place); `helper`, every call of the helper's `deterministicId(…)` or
 * `deterministicShard(…)`. Keyed digests (`createHmac`: signatures, the mailbox pseudonym) are neither.
 */
export function deterministicIdSites(files: Source[]): { byHand: Place[]; helper: Place[] } {
  const byHand: Place[] = [];
  const helper: Place[] = [];
  for (const source of files) {
    if (source.path === ID_HELPER) continue;
    const file = syntaxOf(source);
    eachNode(file, (node) => {
      if (!ts.isCallExpression(node)) return;
      const name = nameOf(node.expression);
      if (name === 'createHash') byHand.push(placeOf(file, node));
      else if (ID_HELPER_FUNCTIONS.has(name ?? '')) helper.push(placeOf(file, node));
    });
  }
  return { byHand, helper };
}

// ---- job names -----------------------------------------------------------------------------------------

/** A function of the manifest that is no API route: a scheduled job, the queue consumer, the cache flusher. */
export interface NamedJob {
  kind: 'scheduledJob' | 'queueConsumer' | 'authorizerCacheFlusher' | 'eventDelivery';
  name: string;
  handler: string;
}

/** `points_approval` and `processWebhookDeliveries` as a file name: `points-approval`, `process-webhook-deliveries`. */
export function fileNameOf(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/_/g, '-')
    .toLowerCase();
}

/** The same as an identifier: `pointsApproval`, `processWebhookDeliveries`. */
export function identifierOf(name: string): string {
  return fileNameOf(name).replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

export interface JobNameMismatch {
  name: string;
  handler: string;
  problem: string;
}

/**
 * Jobs whose name differs across the manifest, the files and the export. The rule: the handler file is
 * `<name as a file name>.ts`. A scheduled job's handler imports `<name as an identifier>Job` from the feature
 * module `shared/<feature>/<name as a file name>.ts` (`points_approval`: `functions/jobs/points-approval.ts`
 * imports `pointsApprovalJob` from `shared/calendar/points-approval.ts`); the queue consumer and the cache
 * flusher, whose work is the function's own (a batch of messages, one flush), export `<name as an
 * identifier>` from the handler file. `read` answers a file's text from the root, undefined if absent.
 */
export function jobNameMismatches(jobs: NamedJob[], read: (path: string) => string | undefined): JobNameMismatch[] {
  return jobs.flatMap(({ kind, name, handler }) => {
    const problems: string[] = [];
    const file = fileNameOf(name);
    if (posix.basename(handler) !== `${file}.ts`) problems.push(`handler file is not ${file}.ts`);
    const text = read(handler);
    if (text === undefined) problems.push('handler file does not exist');
    else {
      const syntax = syntaxOf({ path: handler, text });
      if (kind === 'scheduledJob') {
        const expected = `${identifierOf(name)}Job`;
        const imported = syntax.statements.some(
          (statement) =>
            ts.isImportDeclaration(statement) &&
            ts.isStringLiteral(statement.moduleSpecifier) &&
            posix.join(posix.dirname(handler), statement.moduleSpecifier.text).startsWith('shared/') &&
            posix.basename(statement.moduleSpecifier.text) === file &&
            statement.importClause?.namedBindings !== undefined &&
            ts.isNamedImports(statement.importClause.namedBindings) &&
            statement.importClause.namedBindings.elements.some((element) => element.name.text === expected && !element.propertyName),
        );
        if (!imported) problems.push(`does not import ${expected} from a feature module shared/…/${file}.ts`);
      } else {
        const expected = identifierOf(name);
        const exported = syntax.statements.some(
          (statement) =>
            ts.canHaveModifiers(statement) &&
            (ts.getModifiers(statement) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword) &&
            ((ts.isFunctionDeclaration(statement) && statement.name?.text === expected) ||
              (ts.isVariableStatement(statement) &&
                statement.declarationList.declarations.some((declaration) => nameOf(declaration.name) === expected))),
        );
        if (!exported) problems.push(`does not export ${expected}`);
      }
    }
    return problems.map((problem) => ({ name, handler, problem }));
  });
}

/** The manifest's scheduled jobs, queue consumers, cache flusher and event delivery. */
export async function manifestJobs(): Promise<NamedJob[]> {
  const { ENTRY_POINTS } = await import('../shared/runtime/entry-points');
  return ENTRY_POINTS.flatMap(({ kind, entry }) =>
    kind === 'scheduledJob' || kind === 'queueConsumer' || kind === 'authorizerCacheFlusher' || kind === 'eventDelivery'
      ? [{ kind, name: entry.name, handler: entry.handler }]
      : [],
  );
}

/** A file's text from the root, or undefined when there is none. */
export function readFromRoot(path: string): string | undefined {
  try {
    return readFileSync(join(ROOT, path), 'utf8');
  } catch {
    return undefined;
  }
}

/** The figures of issue 39's reshaping of the data layer, read from the tree. */
/** The longest a function of shared/ and infra/local/ may be, in lines from its first to its last. */
export const MAX_FUNCTION_LINES = 80;

export interface LongFunction extends Place {
  name: string;
  lines: number;
}

/** Functions, methods and arrow functions longer than `max` lines, longest first (a nested one counts on its own). */
export function longFunctions(files: Source[], max = MAX_FUNCTION_LINES): LongFunction[] {
  const found: LongFunction[] = [];
  for (const source of files) {
    const file = syntaxOf(source);
    eachNode(file, (node) => {
      if (!ts.isFunctionDeclaration(node) && !ts.isMethodDeclaration(node) && !ts.isArrowFunction(node) && !ts.isFunctionExpression(node))
        return;
      const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines <= max) return;
      const parent = node.parent;
      const name =
        nameOf((node as ts.FunctionDeclaration).name) ??
        (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)
          ? nameOf(parent.name)
          : undefined) ??
        '(anonymous)';
      found.push({ ...placeOf(file, node), name, lines });
    });
  }
  return found.sort((a, b) => b.lines - a.lines);
}

export function dataLayerFigures() {
  const application = sources('shared', 'functions', 'infra');
  const sharedFiles = application.filter((source) => source.path.startsWith('shared/'));
  const transactions = transactionSites(application);
  const handSet = handSetDerivedAttributes(sharedFiles);
  const raw = rawSingleItemWrites(application);
  const updates = updateExpressionSites(application);
  const refusals = refusalTypes(application);
  return {
    transactionSites: { count: transactions.length, files: countBy(transactions.map((place) => place.file)), places: transactions },
    rawSingleItemWrites: { count: raw.length, files: countBy(raw.map((place) => place.file)), places: raw },
    updateExpressionSites: { count: updates.length, files: countBy(updates.map((place) => place.file)), places: updates },
    refusalTypes: { count: refusals.length, places: refusals },
    handSetDerivedAttributes: { count: handSet.length, files: countBy(handSet.map((place) => place.file)), places: handSet },
    expressionsOutsideData: expressionsOutsideData(sharedFiles),
    backUpArrows: backUpArrows(sharedFiles),
    largestDataFiles: largestDataFiles(),
  };
}

function countBy(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

async function main(): Promise<void> {
  const figures = {
    folders: folderFigures(),
    repositoryImports: repositoryImports(),
    tierChangedBuilders: tierChangedBuilders(),
    authorizer: await authorizerBundle(),
    dataLayer: dataLayerFigures(),
    deterministicIds: deterministicIdSites(sources('shared')),
    jobNames: { jobs: (await manifestJobs()).length, mismatches: jobNameMismatches(await manifestJobs(), readFromRoot) },
    unusedExports: treeUnusedExports(),
    longFunctions: longFunctions(sources('shared', 'infra/local')),
  };
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(figures, null, 2));
    return;
  }
  console.log('| folder | files | lines |\n|---|---:|---:|');
  for (const row of figures.folders) console.log(`| ${row.folder} | ${row.files} | ${row.lines} |`);
  console.log(`\nRepositories importing another repository: ${figures.repositoryImports.length}`);
  for (const entry of figures.repositoryImports) console.log(`- ${entry.repository}: ${entry.imports.join(', ')}`);
  console.log(`\nPlaces that build tier.changed: ${figures.tierChangedBuilders.length}`);
  for (const place of figures.tierChangedBuilders) console.log(`- ${place}`);
  const { bytes, modules, projectModules, dataModules } = figures.authorizer;
  console.log(
    `\nAuthorizer bundle: ${(bytes / 1024).toFixed(1)} KiB, ${modules} modules (${projectModules} of the project); data layer: ${dataModules.join(', ')}`,
  );
  printDataLayer(figures.dataLayer);
  const { byHand, helper } = figures.deterministicIds;
  console.log(`\nDeterministic-id sites: ${helper.length} through ${ID_HELPER}, ${byHand.length} hashed by hand (createHash)`);
  for (const place of byHand) console.log(`- ${place.file}:${place.line}`);
  const { jobs, mismatches } = figures.jobNames;
  const jobsDiffering = new Set(mismatches.map((mismatch) => mismatch.name)).size;
  console.log(`\nJob names that differ across manifest/file/export: ${jobsDiffering} of ${jobs}`);
  for (const mismatch of mismatches) console.log(`- ${mismatch.name} (${mismatch.handler}): ${mismatch.problem}`);
  console.log(`\nExports used nowhere (${EXPORTING_FOLDERS.join(', ')}): ${figures.unusedExports.length}`);
  for (const unused of figures.unusedExports) console.log(`- ${unused.file}:${unused.line}: ${unused.name}`);
  console.log(`\nFunctions over ${MAX_FUNCTION_LINES} lines (shared, infra/local): ${figures.longFunctions.length}`);
  for (const long of figures.longFunctions) console.log(`- ${long.file}:${long.line}: ${long.name} (${long.lines} lines)`);
}

function printDataLayer(data: ReturnType<typeof dataLayerFigures>): void {
  const perFile = (files: Record<string, number>) =>
    Object.entries(files)
      .map(([file, count]) => `${file} (${count})`)
      .join(', ');
  const { transactionSites: transactions, handSetDerivedAttributes: handSet } = data;
  console.log('\n## The data layer\n');
  console.log(
    `Transaction sites: ${transactions.count} in ${Object.keys(transactions.files).length} files: ${perFile(transactions.files)}`,
  );
  const { rawSingleItemWrites: raw, updateExpressionSites: updates, refusalTypes: refusals } = data;
  console.log(
    `\nRaw single-item writes outside ${TABLE_MODULE}: ${raw.count} in ${Object.keys(raw.files).length} files: ${perFile(raw.files)}`,
  );
  console.log(`\nUpdateExpression literals: ${updates.count} in ${Object.keys(updates.files).length} files: ${perFile(updates.files)}`);
  console.log(`\nRefusal types: ${refusals.count}: ${refusals.places.map((place) => `${place.file}:${place.line}`).join(', ')}`);
  console.log(`\nHand-set derived attributes: ${handSet.count} in ${Object.keys(handSet.files).length} files`);
  for (const place of handSet.places) console.log(`- ${place.file}:${place.line}: ${place.index} (${place.how})`);
  console.log(`\nCondition or update expressions outside shared/data: ${data.expressionsOutsideData.length}`);
  for (const place of data.expressionsOutsideData) console.log(`- ${place.file}:${place.line}: \`${place.text}\``);
  console.log(`\nArrows that run back up the feature order (${featureOrder().join(' < ')}): ${data.backUpArrows.length}`);
  for (const arrow of data.backUpArrows) console.log(`- ${arrow.file}:${arrow.line}: ${arrow.from} → ${arrow.to} (${arrow.imported})`);
  console.log('\nLargest data files:');
  for (const row of data.largestDataFiles) console.log(`- ${row.file}: ${row.lines} lines`);
}

if (require.main === module) void main();
