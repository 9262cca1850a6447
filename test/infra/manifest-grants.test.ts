// The stack builds and grants each function from its manifest entry alone: a new entry's table access and
// narrow grants need no stack code, a grant only the flusher may hold is refused anywhere else, and each
// function's construct id comes from the entry's one name.
import type { Template } from 'aws-cdk-lib/assertions';
import { type Route, ROUTES, SHOPPER_ROUTES } from '../../shared/runtime/entry-points';
import { SHOPPER_BUDGET_PARTITIONS } from '../../shared/data/keys';
import { synthStack } from '../support/synth-stack';

jest.setTimeout(180_000);

type Properties = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A read route the manifest does not have, granted the customer list's page boundaries. */
const NEW_ROUTE: Route = {
  name: 'listSomething',
  method: 'GET',
  path: '/v1/something',
  handler: 'functions/customers/list.ts',
  scope: 'read',
  table: 'read',
  throttle: 'standard',
  grants: ['listPageBoundaries'],
};

function statementsOf(template: Template, functionId: string): Properties[] {
  const functions = template.findResources('AWS::Lambda::Function');
  const roleId = functions[functionId]!.Properties.Role['Fn::GetAtt'][0];
  return Object.values(template.findResources('AWS::IAM::Policy'))
    .filter((policy) => policy.Properties.Roles.some((role: { Ref: string }) => role.Ref === roleId))
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Properties[]);
}

describe('functions granted from their manifest entry', () => {
  const { template } = synthStack({ props: { routes: [...ROUTES, NEW_ROUTE] } });
  const functions = template.findResources('AWS::Lambda::Function');

  it('names each function after its entry: one construct id per name', () => {
    const ids = Object.keys(functions);
    for (const expected of [
      'FnListCustomers',
      'FnListSomething',
      'FnAuthorizer',
      'FnPointsApproval',
      'FnOrderReconciliation',
      'FnPurchaseReconciler',
    ]) {
      expect(ids.some((id) => id.startsWith(expected))).toBe(true);
    }
  });

  it("gives a new read route exactly its entry's grants: table reads, and the page boundaries' one write", () => {
    const id = Object.keys(functions).find((key) => functions[key]!.Properties.Description === 'GET /v1/something')!;
    const statements = statementsOf(template, id);
    const actions = statements.flatMap((statement) => [statement.Action].flat() as string[]);

    expect(actions).not.toContain('dynamodb:PutItem');
    expect(actions).toContain('dynamodb:GetItem');
    expect(statements).toContainEqual(
      expect.objectContaining({
        Action: 'dynamodb:BatchWriteItem',
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [expect.any(String), expect.any(String)] } },
      }),
    );
  });

  it("grants each shopper function least privilege: its table access, its shop budget's one write, the shops' Shopify secrets to read", () => {
    const writes = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];
    for (const route of SHOPPER_ROUTES) {
      const id = Object.keys(functions).find((key) => functions[key]!.Properties.Description === `${route.method} ${route.path}`)!;
      const statements = statementsOf(template, id);
      const actions = statements.flatMap((statement) => [statement.Action].flat() as string[]);
      // A reader writes one thing: its shop's budget counter, by UpdateItem, in the budget partitions only.
      const unconditioned = statements.filter((statement) => !statement.Condition);
      const tableWrites = unconditioned.flatMap((statement) => [statement.Action].flat() as string[]).filter((a) => writes.includes(a));

      expect(actions).toContain('dynamodb:GetItem');
      expect(tableWrites.length > 0).toBe(route.table === 'write');
      if (route.table !== 'write') {
        expect(statements.filter((statement) => statement.Condition)).toEqual([
          expect.objectContaining({
            Action: 'dynamodb:UpdateItem',
            Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [SHOPPER_BUDGET_PARTITIONS] } },
          }),
        ]);
      }
      expect(actions).toContain('secretsmanager:GetSecretValue');
      // No event bus, no queue, no authorizer cache.
      expect(actions.filter((action) => /^(events|sqs|apigateway)/.test(action))).toEqual([]);
      const secrets = statements.filter((statement) => [statement.Action].flat().includes('secretsmanager:GetSecretValue'));
      expect(JSON.stringify(secrets.map((statement) => statement.Resource))).toContain('loyalty/shopify/*');
    }
  });

  it("refuses a read-only shopper route without its shop budget's grant", () => {
    const [program, ...others] = SHOPPER_ROUTES;
    const ungranted = { ...program!, grants: [] };

    expect(() => synthStack({ props: { shopperRoutes: [ungranted, ...others] } })).toThrow(/shopperBudget/);
  });

  it("refuses the flusher's grants on any other entry", () => {
    const flushing: Route = { ...NEW_ROUTE, name: 'flushSomething', path: '/v1/flush', uses: ['authorizerCache'], grants: [] };

    expect(() => synthStack({ props: { routes: [...ROUTES, flushing] } })).toThrow(/granted by the authorizer cache flusher only/);
  });
});
