// What the twin's start does with its usage plan (infra/local/twin.ts), on a table of its own: a usage-plan key for
// each active key of the configuration file, as `config apply` gives one in the cloud; a twin started again on the
// same table takes back the keys the table's keys hold (the stack's plan outlives a deployment) and gives none
// twice; a key the CLI created with no plan reachable has none and stays refused; `keys revoke` disables its key.
import { keysCreate, keysRevoke } from '../../infra/cli/commands';
import { twinUsagePlan } from '../../infra/local/twin-usage-plan';
import { authenticate } from '../../shared/auth/authenticate';
import { parseConfig } from '../../shared/config/schema';
import { hashApiKey, keyIdOf } from '../../shared/domain/api-key';
import { applyConfig } from '../../shared/shops/apply-config';
import { storedUsageKeys, syncConfigUsageKeys } from '../../shared/shops/usage-plan-keys';
import { createTestTable } from '../support/test-table';

jest.setTimeout(60_000);

const SHOP = 'plan-shop';
const ACTIVE = 'plan_file_key_active_0001';
const REVOKED = 'plan_file_key_revoked_0002';
const config = parseConfig({
  shops: [
    {
      id: SHOP,
      name: 'Plan Shop',
      currency: 'USD',
      referral_base_url: 'https://plan.example/',
      api_keys: [
        { name: 'Active', scope: 'read', key: ACTIVE },
        { name: 'Revoked', scope: 'read', key: REVOKED, revoked: true },
      ],
      earning_rules: [],
      platform: { customers: [] },
    },
  ],
});

let table: Awaited<ReturnType<typeof createTestTable>>;
beforeAll(async () => {
  table = await createTestTable();
});
afterAll(async () => {
  await table.drop();
});

/** What the gateway asks the plan: whether the key's usageIdentifierKey is an enabled key of it. */
async function admitted(plan: ReturnType<typeof twinUsagePlan>, key: string): Promise<boolean> {
  const auth = await authenticate(key);
  return auth.ok && plan.admits(auth.usageIdentifierKey);
}

describe("the twin's usage plan at its start", () => {
  it('gives the active file keys a usage-plan key once, and a twin started again on the table takes them back', async () => {
    await applyConfig(config);
    const first = twinUsagePlan();
    first.adopt(await storedUsageKeys());
    const firstSync = await syncConfigUsageKeys(config, first);

    await applyConfig(config);
    const second = twinUsagePlan();
    second.adopt(await storedUsageKeys());
    const secondSync = await syncConfigUsageKeys(config, second);

    expect(firstSync).toEqual({ attached: 1, disabled: 0 });
    expect([await admitted(first, ACTIVE), await admitted(first, REVOKED)]).toEqual([true, false]);
    expect(secondSync).toEqual({ attached: 0, disabled: 0 });
    expect(second.list().map((key) => key.id)).toEqual(first.list().map((key) => key.id));
    expect([await admitted(second, ACTIVE), await admitted(second, REVOKED)]).toEqual([true, false]);
  });

  it('keeps a key created with no usage plan reachable refused, and disables a revoked key in the plan', async () => {
    const plan = twinUsagePlan();
    plan.adopt(await storedUsageKeys());
    const print = () => undefined;
    const offline = await keysCreate({ shop: SHOP, name: 'Offline', scope: 'read' }, { usagePlan: null, print });
    const online = await keysCreate({ shop: SHOP, name: 'Online', scope: 'read' }, { usagePlan: plan, print });
    const before = await admitted(plan, online.key);

    await keysRevoke({ shop: SHOP, keyId: keyIdOf(hashApiKey(ACTIVE)) }, { usagePlan: plan, print });

    expect(await admitted(plan, offline.key)).toBe(false);
    expect(before).toBe(true);
    expect(await admitted(plan, online.key)).toBe(true);
    expect(plan.list().filter((key) => !key.enabled)).toHaveLength(1);
  });
});
