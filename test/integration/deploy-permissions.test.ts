// docs/deploy.md, "Least IAM permissions": each operator CLI command run against DynamoDB Local with every
// DynamoDB call counted (DYNAMODB_STATS, the bench's middleware), and each call's action found among those
// the page grants that command. A command that starts making a call the page does not grant fails here.
process.env.DYNAMODB_STATS = 'true';

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../infra/cli/main';
import { dynamoDbStats, resetDynamoDbStats } from '../../shared/data/dynamodb-stats';
import { createTestTable, testEndpoint } from '../support/test-table';
import { documentedCommands } from '../support/deploy-doc';

jest.setTimeout(120_000);

const SHOP = 'permissions-shop';
const tmp = mkdtempSync(join(tmpdir(), 'deploy-permissions-'));
const file = (name: string, content: string) => {
  const path = join(tmp, name);
  writeFileSync(path, content);
  return path;
};
const CONFIG = file(
  'config.json',
  JSON.stringify({
    shops: [
      {
        id: SHOP,
        name: 'Permissions Shop',
        currency: 'USD',
        referral_base_url: 'https://permissions.example/',
        api_keys: [{ name: 'From file', scope: 'read', key: 'permissions_file_key_01' }],
        platform: { customers: [{ id: '1001', email: 'ada@example.com', created_at: '2024-03-01T10:00:00.000Z' }] },
        members: [
          {
            platform_customer_id: '1001',
            current_points: 80,
            lifetime_points: 120,
            redeemed_points: 0,
            enrolled_at: '2025-02-01T00:00:00.000Z',
          },
        ],
      },
    ],
  }),
);
const MEMBERS = file('smile.csv', ['Customer ID,Email,Points Balance', "'8001,,1200", ',ada@example.com,300'].join('\n'));
const CUSTOMERS = file(
  'customers_export.csv',
  ['Customer ID,First Name,Last Name,Email', "'8001,Grace,Hopper,grace@example.com", "'1001,Ada,Lovelace,ada@example.com"].join('\n'),
);

let table: Awaited<ReturnType<typeof createTestTable>>;
beforeAll(async () => {
  table = await createTestTable();
});
afterAll(async () => {
  await table.drop();
});

/** Runs one command and answers the IAM actions of the DynamoDB calls it made. */
async function actionsOf(...args: string[]): Promise<{ code: number; out: string; actions: string[] }> {
  const out: string[] = [];
  resetDynamoDbStats();
  const code = await main([...args, '--endpoint', testEndpoint(), '--table', table.tableName], {
    out: (line) => out.push(line),
    err: (line) => out.push(line),
  });
  const actions = Object.keys(dynamoDbStats().calls).map((command) => `dynamodb:${command.replace(/Command$/, '')}`);
  return { code, out: out.join('\n'), actions: [...new Set(actions)].sort() };
}

describe('docs/deploy.md, the CLI commands’ DynamoDB permissions', () => {
  it('grants each command every DynamoDB action it makes', async () => {
    const documented = documentedCommands();
    const granted = (command: string) => {
      const row = documented.find((entry) => entry.command === command);
      expect(row).toBeDefined();
      return row!.dynamodb.map((action) => `dynamodb:${action}`);
    };
    const observed: Record<string, string[]> = {};
    const run = async (command: string, ...args: string[]) => {
      const result = await actionsOf(...args);
      expect({ command, code: result.code, out: result.out }).toMatchObject({ command, code: 0 });
      observed[command] = result.actions;
      return result;
    };

    await run('loyalty config apply', 'config', 'apply', CONFIG);
    const created = await run('loyalty keys create', 'keys', 'create', '--shop', SHOP, '--name', 'Backend', '--scope', 'full');
    await run('loyalty keys list', 'keys', 'list', '--shop', SHOP);
    const keyId = /created key (\S+) for shop/.exec(created.out)![1]!;
    await run('loyalty keys revoke', 'keys', 'revoke', '--shop', SHOP, '--key-id', keyId);
    await run('loyalty email-index backfill', 'email-index', 'backfill', '--shop', SHOP);
    await run('loyalty imported-batches backfill', 'imported-batches', 'backfill');
    await run('loyalty member-list backfill', 'member-list', 'backfill', '--shop', SHOP);
    await run('loyalty name-index backfill', 'name-index', 'backfill', '--shop', SHOP);
    const imported = await run('loyalty import', 'import', MEMBERS, '--shop', SHOP, '--from', 'smile', '--customers', CUSTOMERS);
    const importId = /Import id: ([0-9a-f]{16})/.exec(imported.out)![1]!;
    await run('loyalty import undo', 'import', 'undo', importId, '--shop', SHOP);
    await run('loyalty stats backfill', 'stats', 'backfill', '--shop', SHOP);
    await run('loyalty stats verify', 'stats', 'verify', '--shop', SHOP);

    for (const [command, actions] of Object.entries(observed)) {
      expect({ command, missing: actions.filter((action) => !granted(command).includes(action)) }).toEqual({ command, missing: [] });
    }
  });
});
