// docs/events.md's catalogue lists exactly the types of the `DomainEvent` union (shared/domain/events.ts), read
// with TypeScript's checker: a type added to the union and not to the page, or left on the page after it
// left the union, fails here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const ROOT = join(__dirname, '..', '..');
const EVENTS_MODULE = join(ROOT, 'shared', 'domain', 'events.ts');

/** Every string literal the `type` property of a `DomainEvent` member may hold. */
function unionTypes(): string[] {
  const program = ts.createProgram([EVENTS_MODULE], { strict: true, noEmit: true, noLib: true, types: [] });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(EVENTS_MODULE)!;
  const alias = source.statements.find(
    (statement): statement is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(statement) && statement.name.text === 'DomainEvent',
  );
  const union = checker.getTypeAtLocation(alias!.name);
  const members = union.isUnion() ? union.types : [union];
  return members.flatMap((member) => {
    const property = member.getProperty('type')!;
    const type = checker.getTypeOfSymbolAtLocation(property, alias!);
    return (type.isUnion() ? type.types : [type]).map((literal) => (literal as ts.StringLiteralType).value);
  });
}

/** The first column of the catalogue's table. */
function catalogued(): string[] {
  const page = readFileSync(join(ROOT, 'docs', 'events.md'), 'utf8');
  const section = page.slice(page.indexOf('## The catalogue'), page.indexOf('## A store'));
  return [...section.matchAll(/^\| `([a-z_]+\.[a-z_]+)` \|/gm)].map((match) => match[1]!);
}

describe('docs/events.md, the catalogue', () => {
  it('lists every type of the DomainEvent union once, and no other', () => {
    const types = unionTypes();
    const listed = catalogued();

    expect(types.length).toBeGreaterThanOrEqual(18);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual([...new Set(types)].sort());
  });

  it('holds the contract’s new types', () => {
    expect(catalogued()).toEqual(expect.arrayContaining(['customer.enrolled', 'reward.purchased', 'points.earned', 'customer.erased']));
  });
});
