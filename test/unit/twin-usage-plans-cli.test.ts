// The operator CLI's way to the twin's usage plan: with --endpoint at a loopback DynamoDB, the target's usage plan
// is that of the twins running on the table (infra/local/twin-registry.ts), reached through their control
// endpoints; each twin gets the key under the same id, a stopped twin is skipped, and none running means none.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveTarget } from '../../infra/cli/targets';
import { twinUsagePlans } from '../../infra/cli/twin-usage-plans';
import { startGateway, type Gateway } from '../../infra/local/gateway';
import { registerTwin } from '../../infra/local/twin-registry';
import { TWIN_USAGE_PLAN_ID, twinUsagePlan, type TwinUsagePlan } from '../../infra/local/twin-usage-plan';

const DYNAMODB = 'http://127.0.0.1:59998';
const TABLE = 'usage-plan-cli';
const registry = mkdtempSync(join(tmpdir(), 'loyalty-twins-test-'));
const twins: Array<{ plan: TwinUsagePlan; gateway: Gateway; unregister: () => void }> = [];

beforeAll(async () => {
  process.env.LOYALTY_TWIN_REGISTRY = registry;
  for (let i = 0; i < 2; i += 1) {
    const plan = twinUsagePlan();
    const gateway = await startGateway({ routes: [], root: join(__dirname, '..', '..'), port: 0, control: plan.controls() });
    twins.push({ plan, gateway, unregister: registerTwin({ url: gateway.url, dynamodbEndpoint: DYNAMODB, tableName: TABLE }) });
  }
});
afterAll(async () => {
  for (const twin of twins) {
    twin.unregister();
    await twin.gateway.stop();
  }
  rmSync(registry, { recursive: true, force: true });
});

describe("the CLI's usage plan at a twin's table", () => {
  it('creates, attaches and disables the key in every twin running on the table, under one id', async () => {
    const plan = twinUsagePlans('http://localhost:59998', TABLE)!;
    const value = 'cli-usage-value-0123456789abcdef';

    const { id } = await plan.keys.create('loyalty-shop-abc', value);
    const before = twins.map((twin) => twin.plan.admits(value));
    await plan.keys.attach(plan.id, id);
    const attached = twins.map((twin) => twin.plan.admits(value));
    await plan.keys.disable(id);
    const disabled = twins.map((twin) => twin.plan.admits(value));

    expect(twins.map((twin) => twin.plan.list().map((key) => key.id))).toEqual([[id], [id]]);
    expect({ before, attached, disabled }).toEqual({ before: [false, false], attached: [true, true], disabled: [false, false] });
    for (const twin of twins) expect(plan.description).toContain(`the twin at ${twin.gateway.url}`);
  });

  it('disables a key no twin holds without failing (nothing there admits it), and says what a twin refused', async () => {
    const plan = twinUsagePlans(DYNAMODB, TABLE)!;

    await expect(plan.keys.disable('tw00000000')).resolves.toBeUndefined();
    await expect(plan.keys.attach('another-plan', 'tw00000000')).rejects.toThrow(
      /answered HTTP 404 to \/_usage-plan\/keys\/attach: Invalid Usage Plan ID/,
    );
  });

  it('is the target of --endpoint while a twin runs on the table, and none for another table', async () => {
    const target = await resolveTarget({ endpoint: DYNAMODB, table: TABLE });
    const other = await resolveTarget({ endpoint: DYNAMODB, table: 'no-twin-here' });

    expect(target.usagePlan?.id).toBe(TWIN_USAGE_PLAN_ID);
    expect(other.usagePlan).toBeNull();
  });
});
