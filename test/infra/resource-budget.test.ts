// The stack's room to grow (docs/decisions.md, "Nested stacks"; docs/deploy.md, "The resource budget"): CloudFormation
// takes at most 500 resources per stack. The main stack keeps what an update must not replace (the table, the queues,
// the bus, the REST API and its methods) under 60 % of that with every option on; the functions, the schedules and
// the alarms live in nested stacks, each with room of its own; and a new route costs the main stack its methods only.
import type { Template } from 'aws-cdk-lib/assertions';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ADMIN_PAGES, type PageRoute, type Route, ROUTES, SHOPPER_ROUTES, type ShopperRoute } from '../../shared/runtime/entry-points';
import type { LoyaltyStackProps } from '../../infra/cdk/loyalty-stack';
import { synthStack } from '../support/synth-stack';

jest.setTimeout(180_000);

/** 60 % of CloudFormation's 500 resources per stack. */
const MAIN_BUDGET = 300;
/** A nested stack's own ceiling in this test: 80 % of 500, the point at which CDK starts to warn. */
const NESTED_BUDGET = 400;

const EVERY_OPTION: LoyaltyStackProps = {
  alarmEmail: 'ops@example.com',
  waf: true,
  shopifyEventSourceName: 'aws.partner/shopify.com/123456/loyalty',
  detailedTracing: true,
};

/** The single stack as deployed before the nested stacks (test/fixtures/stack/deployed-logical-ids.json names its source). */
const deployed = JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'stack', 'deployed-logical-ids.json'), 'utf8')) as {
  logicalIds: Record<string, string>;
};

const count = (template: Template) => Object.keys(template.toJSON().Resources).length;

describe('the resource budget', () => {
  const byDefault = synthStack();
  const everything = synthStack({ props: EVERY_OPTION });

  it.each([
    ['by default', byDefault],
    ['with every option', everything],
  ])('keeps the main stack under 60 %% of 500 resources and every nested stack under 80 %% (%s)', (_, { main, nested }) => {
    expect(count(main)).toBeLessThan(MAIN_BUDGET);
    expect([...nested.keys()].sort()).toEqual(['Monitoring', 'RouteFunctions', 'ScheduledJobs', 'Workers']);
    for (const template of nested.values()) expect(count(template)).toBeLessThan(NESTED_BUDGET);
  });

  it('keeps no function in the main stack but the authorizer, and no invoke permission per method', () => {
    const functions = Object.values(byDefault.main.findResources('AWS::Lambda::Function'));
    expect(functions.map((fn) => fn.Properties.Description)).toEqual(['API key authorizer']);
    // The authorizer's own permission (it names the API's authorizer); the routes' live beside their functions.
    expect(Object.keys(byDefault.main.findResources('AWS::Lambda::Permission'))).toHaveLength(1);
    expect(Object.keys(byDefault.main.findResources('AWS::CloudWatch::Alarm'))).toHaveLength(0);
  });

  it("keeps every stateful and API Gateway resource of the deployed single stack at its logical id, the table's retained", () => {
    const resources = byDefault.main.toJSON().Resources as Record<string, { Type: string; DeletionPolicy?: string }>;
    const missing = Object.entries(deployed.logicalIds)
      .filter(([id, type]) => resources[id]?.Type !== type)
      .map(([id]) => id);
    // The shopper paths' OPTIONS mocks alone are gone: each path's ANY mock answers the preflight now.
    expect(missing.sort()).toEqual([
      'HttpApishoppermemberOPTIONSE9634F2F',
      'HttpApishoppermemberactivityOPTIONSD9A8B96B',
      'HttpApishopperprogramOPTIONS0377126C',
      'HttpApishopperrewardsidredeemOPTIONS510DBFAC',
    ]);
    const tables = Object.entries(resources).filter(([, resource]) => resource.Type === 'AWS::DynamoDB::Table');
    expect(tables).toEqual([[expect.stringMatching(/^DataTable/), expect.objectContaining({ DeletionPolicy: 'Retain' })]]);
  });

  describe("a route's cost to the main stack", () => {
    const mainCount = (props: LoyaltyStackProps) => count(synthStack({ props }).main);
    const base = count(byDefault.main);
    const handler = 'functions/vip-tiers/list.ts';

    it('is its method and its /admin/api twin on a path the API has (2)', () => {
      const route: Route = { ...ROUTES.find((r) => r.path === '/v1/vip-tiers')!, name: 'budgetProbe', method: 'POST', handler };
      expect(mainCount({ routes: [...ROUTES, route] }) - base).toBe(2);
    });

    it('is its resource, method and mock for a shopper route on a new path (3)', () => {
      const route: ShopperRoute = { ...SHOPPER_ROUTES[0]!, name: 'budgetProbe', method: 'POST', path: '/shopper/budget-probe', handler };
      expect(mainCount({ shopperRoutes: [...SHOPPER_ROUTES, route] }) - base).toBe(3);
    });

    it('is its resource and method for a staff route on a new path (2)', () => {
      const page: PageRoute = { ...ADMIN_PAGES[1]!, name: 'budgetProbe', path: '/admin/api/budget-probe', handler };
      expect(mainCount({ pages: [...ADMIN_PAGES, page] }) - base).toBe(2);
    });

    it('is 5 for a /v1 route on a new path: the route and its twin, two resources and the 405 mock', () => {
      const route: Route = { ...ROUTES.find((r) => r.path === '/v1/vip-tiers')!, name: 'budgetProbe', path: '/v1/budget-probe', handler };
      expect(mainCount({ routes: [...ROUTES, route] }) - base).toBe(5);
    });
  });
});
