// The shape the data layer and the points rule were given, held: no repository imports another, one place
// builds a tier.changed event (the domain's points move), the authorizer's bundle stays clear of the
// customer list, the history and the due-work index, and no feature imports a feature above it. The data
// layer's figures of `npm run structure` are read from the syntax tree: each counter is shown what counts
// and what only looks like it (a comment, a type, a read, a condition).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  authorizerBundle,
  backUpArrows,
  expressionsOutsideData,
  featureOrder,
  handSetDerivedAttributes,
  largestDataFiles,
  rawSingleItemWrites,
  refusalTypes,
  repositoryImports,
  sources,
  tierChangedBuilders,
  transactionSites,
  treeUnusedExports,
  longFunctions,
  MAX_FUNCTION_LINES,
  unusedExports,
  updateExpressionSites,
} from '../../scripts/structure';

const source = (path: string, lines: string[]) => ({ path, text: lines.join('\n') + '\n' });

describe('the shape of the tree', () => {
  it('has no repository importing another repository', () => {
    expect(repositoryImports()).toEqual([]);
  });

  it('builds tier.changed in one place: the member points rule of the domain', () => {
    expect(tierChangedBuilders().map((place) => place.split(':')[0])).toEqual(['shared/domain/member-points.ts']);
  });

  it("keeps the authorizer's bundle to the key's item and what reads it", async () => {
    const { dataModules } = await authorizerBundle();

    expect(dataModules.filter((module) => /customer|history|due|shop-repository|list/.test(module))).toEqual([]);
    expect(dataModules).toContain('shared/data/api-key-repository.ts');
  });

  it('has no import from a feature folder into one above it in the order lint declares', () => {
    expect(backUpArrows(sources('shared'))).toEqual([]);
  });

  it('gives every feature folder of shared/ a place in the feature order', () => {
    const layers = ['domain', 'runtime', 'observability', 'data', 'platform', 'outbound', 'config', 'http', 'openapi'];
    const folders = readdirSync(join(__dirname, '..', '..', 'shared')).filter((name) =>
      statSync(join(__dirname, '..', '..', 'shared', name)).isDirectory(),
    );

    expect(folders.filter((folder) => !layers.includes(folder) && !featureOrder().includes(folder))).toEqual([]);
  });

  it(`has no function over ${MAX_FUNCTION_LINES} lines in shared/ and infra/local/`, () => {
    expect(longFunctions(sources('shared', 'infra/local')).map(({ file, name, lines }) => `${file} ${name} ${lines}`)).toEqual([]);
  });

  it('counts a function, a method and an arrow function by their lines, a nested one on its own', () => {
    const body = (count: number) => Array.from({ length: count }, (_, index) => `  step(${index});`);
    const file = {
      path: 'shared/x.ts',
      text: [
        'export function long() {',
        ...body(80),
        '}',
        'export function short() {',
        ...body(78),
        '}',
        'class Worker {',
        '  run() {',
        ...body(79),
        '  }',
        '}',
        'const outer = () => {',
        '  const inner = () => {',
        ...body(81),
        '  };',
        '};',
      ].join('\n'),
    };

    expect(longFunctions([file]).map(({ name, lines }) => `${name} ${lines}`)).toEqual(['outer 85', 'inner 83', 'long 82', 'run 81']);
  });

  it('has no export that no other file imports', () => {
    const unused = treeUnusedExports().map(({ file, name }) => `${file} ${name}`);

    expect(unused).toEqual([]);
  });

  it('sends every transaction from the data layer: no feature, handler or infrastructure module builds one', () => {
    const sites = transactionSites(sources('shared', 'functions', 'infra'));

    expect(sites.length).toBeGreaterThan(0);
    expect(sites.filter((site) => !site.file.startsWith('shared/data/'))).toEqual([]);
  });
});

describe('the one commit path', () => {
  const application = () => sources('shared', 'functions', 'infra');

  it('sends every single-item write from shared/data/table.ts: none is built anywhere else', () => {
    expect(rawSingleItemWrites(application())).toEqual([]);
  });

  it("has one Refusal type: the one commit path's", () => {
    expect(refusalTypes(application()).map((place) => place.file)).toEqual(['shared/data/commit.ts']);
  });

  it('builds every update expression in the one builder', () => {
    const files = [...new Set(updateExpressionSites(application()).map((place) => place.file))];

    expect(files).toEqual(['shared/data/items/update.ts']);
  });

  it('counts a raw single-item write where one is built, outside the table module only', () => {
    const repository = source('shared/data/x-repository.ts', [
      "import { PutCommand, UpdateCommand, type DeleteCommandInput } from '@aws-sdk/lib-dynamodb';",
      "import { UpdateItemCommand } from '@aws-sdk/client-dynamodb';",
      '// await client.send(new PutCommand({ Item }));',
      "const text = 'new DeleteCommand(';",
      'await client.send(new PutCommand({ TableName, Item }));',
      'await client.send(',
      '  new UpdateItemCommand({ TableName, Key }),',
      ');',
      'await client.send(new GetCommand({ TableName, Key }));',
    ]);
    const table = source('shared/data/table.ts', ['await client.send(new UpdateCommand(Update));']);

    expect(rawSingleItemWrites([repository, table])).toEqual([
      { file: 'shared/data/x-repository.ts', line: 5 },
      { file: 'shared/data/x-repository.ts', line: 7 },
    ]);
  });

  it('counts an UpdateExpression written, whatever its value, and a Refusal declared, never one named', () => {
    const file = source('shared/data/x.ts', [
      "const a = { UpdateExpression: 'SET #a = :a' };",
      'const b = { UpdateExpression: `ADD ${name} :one` };',
      'const c = { UpdateExpression: expression };',
      'const d = { UpdateExpression };',
      'type E = { UpdateExpression: string };',
      'const f = request.UpdateExpression;',
      '// UpdateExpression: SET x = :x',
      'export type Refusal = { kind: string };',
      'interface Refusal { kind: string }',
      'class Refusal {}',
      "import { type Refusal } from './commit';",
      'type KlaviyoRefusal = { reason: string };',
      'const refusal: Refusal = outcome.refusal;',
    ]);

    expect(updateExpressionSites([file]).map((place) => place.line)).toEqual([1, 2, 3, 4]);
    expect(refusalTypes([file]).map((place) => place.line)).toEqual([8, 9, 10]);
  });
});

describe('the data layer figures', () => {
  it('counts a transaction site where a TransactWriteItems command is built, not where one is named', () => {
    const file = source('shared/data/x-repository.ts', [
      "import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';",
      "import { TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';",
      '// await client.send(new TransactWriteCommand({ TransactItems }));',
      "const text = 'new TransactWriteCommand(';",
      'type Items = TransactWriteCommandInput;',
      'await client.send(new TransactWriteCommand({ TransactItems: [] }));',
      'await client.send(',
      '  new TransactWriteItemsCommand({ TransactItems: [] }),',
      ');',
    ]);

    expect(transactionSites([file])).toEqual([
      { file: 'shared/data/x-repository.ts', line: 6 },
      { file: 'shared/data/x-repository.ts', line: 8 },
    ]);
  });

  it('counts each write of a derived index attribute outside the item modules, once per site and index', () => {
    const file = source('shared/data/x-repository.ts', [
      "const a = { UpdateExpression: 'SET #s = :s, due_pk = :duePk, due_at = :dueAt' };",
      "const b = { UpdateExpression: `SET x = :x${due ? ', due_pk = :p' : ''} ` + 'REMOVE unsettled_pk, unsettled_since' };",
      "const c = 'SET a = :a REMOVE due_pk, due_at';",
      "if (due) sets.push(`${name('due_pk')} = ${value(due.due_pk)}`, `${name('due_at')} = :x`);",
      "else removes.push(name('due_pk'), name('due_at'));",
      "const d = { set: { due_pk, due_at }, remove: ['unsettled_pk'] };",
      'const e = { Item: { ...entryItem(entry), ...unsettledAttributes(now) } };',
      'const { due_pk: _p, due_at: _a, ...rest } = item;',
      "const f = { ConditionExpression: 'attribute_exists(due_pk) AND due_at < :now' };",
      "const g = { KeyConditionExpression: 'due_pk = :pk AND due_at < :until' };",
      "const h = { partitionKey: { name: 'due_pk', type: 'S' } };",
      'const i = item.due_pk !== undefined;',
      "const j = { remove: stored.due_pk === undefined ? ['due_pk'] : [] };",
      '// UpdateExpression: SET due_pk = :duePk',
      'const { due_pk: readOnly } = item;',
      "const k = ['due_at', 'updated_at'].map((attribute) => `#${attribute} = :${attribute}`);",
    ]);
    const items = source('shared/data/items/x.ts', ['export const derived = { due_pk: p, due_at: a, unsettled_pk: u };']);

    expect(handSetDerivedAttributes([file, items]).map(({ line, index, how }) => `${line} ${index} ${how}`)).toEqual([
      '1 due work update expression',
      '2 due work update expression',
      '2 unsettled purchases update expression',
      '3 due work update expression',
      '4 due work expression parts',
      '5 due work expression parts',
      '6 due work object key',
      '6 unsettled purchases expression parts',
      '7 unsettled purchases derive spread',
      '8 due work dropped',
      '13 due work expression parts',
    ]);
  });

  it('counts DynamoDB expressions written outside shared/data, and no other string', () => {
    const feature = source('shared/calendar/x.ts', [
      "const a = { condition: '#due_pk = :duePk' };",
      'const b = { condition: `${update.condition} AND #status = :active` };',
      "const c = { ConditionExpression: 'attribute_not_exists(pk)' };",
      "const d = { UpdateExpression: 'SET current_points = current_points - :points' };",
      "const e = { ProjectionExpression: 'pk' };",
      "const f = 'Policy::arn:<AWS::Partition>:iam::aws:policy/x';",
      "const g = 'a = b';",
      '// condition: #due_pk = :duePk',
      "logger.info('points moved', { points: 5 });",
    ]);
    const data = source('shared/data/x-repository.ts', ["const a = { ConditionExpression: '#v = :v' };"]);

    expect(expressionsOutsideData([feature, data]).map(({ line }) => line)).toEqual([1, 2, 3, 4, 5]);
  });

  it('counts an import that runs up the feature order, in any form, and no import down it', () => {
    const order = ['customers', 'rules', 'calendar'];
    const customers = source('shared/customers/x.ts', [
      "import { a } from '../rules/a';",
      "import type { B } from '../calendar/b';",
      "export { c } from '../rules/c';",
      "const d = await import('../calendar/d');",
      "// import { e } from '../rules/e';",
      "import { f } from '../domain/f';",
      "import { g } from './g';",
    ]);
    const rules = source('shared/rules/y.ts', ["import { h } from '../customers/h';"]);
    const outside = source('shared/shopper/z.ts', ["import { i } from '../calendar/i';"]);

    expect(backUpArrows([customers, rules, outside], order).map(({ line, from, to }) => `${line} ${from} → ${to}`)).toEqual([
      '1 customers → rules',
      '2 customers → calendar',
      '3 customers → rules',
      '4 customers → calendar',
    ]);
  });

  it('reads the feature order lint declares, from the bottom up', () => {
    const order = featureOrder();

    expect(order.indexOf('customers')).toBeLessThan(order.indexOf('rules'));
    expect(order.indexOf('orders')).toBeLessThan(order.indexOf('webhooks'));
    expect(order.indexOf('shopper')).toBeLessThan(order.indexOf('klaviyo'));
    expect(order.indexOf('klaviyo')).toBeLessThan(order.indexOf('staff'));
    expect(order.at(-1)).toBe('staff');
  });

  it('counts an export no other file imports, read through every form of import, and no export in use', () => {
    const module = source('shared/x/module.ts', [
      'export function named() {}',
      'export const renamed = 1, unusedConstant = 2;',
      'export type Used = string;',
      'export interface UnusedShape { a: number }',
      'export type OwnUse = number;',
      'export function ownUser(value: OwnUse) { return value; }',
      'const local = 3;',
      'export { local as exportedLocal };',
      'export default function () {}',
    ]);
    const everything = source('shared/x/everything.ts', ['export const a = 1;', 'export const b = 2;']);
    const required = source('shared/x/required.ts', ['export const c = 1;']);
    const handlerModule = source('functions/x/y.ts', ['export const handler = 1;', 'export const run = 2;', 'export const other = 3;']);
    const entry = source('infra/cdk/app.ts', ['export const app = 1;']);
    const importer = source('test/unit/x.test.ts', [
      "import stuff, { named, renamed as r, type Used } from '../../shared/x/module';",
      "import { ownUser } from '../../shared/x/module.js';",
      "import * as all from '../../shared/x/everything';",
      "const { c } = require('../../shared/x/required');",
      "// import { unusedConstant } from '../../shared/x/module';",
    ]);

    const unused = unusedExports([module, everything, required, handlerModule, entry], [module, importer], new Set(['infra/cdk/app.ts']));

    expect(unused.map(({ file, line, name }) => `${file}:${line} ${name}`)).toEqual([
      'shared/x/module.ts:2 unusedConstant',
      'shared/x/module.ts:4 UnusedShape',
      'shared/x/module.ts:8 exportedLocal',
      'functions/x/y.ts:3 other',
    ]);
  });

  it('lists the largest data files, largest first', () => {
    const rows = largestDataFiles(3);

    expect(rows).toHaveLength(3);
    expect(rows.every((row) => row.file.startsWith('shared/data/'))).toBe(true);
    expect([...rows].sort((a, b) => b.lines - a.lines)).toEqual(rows);
  });
});
