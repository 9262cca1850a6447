// `loyalty import` and `loyalty import undo` through the CLI's entry point against DynamoDB Local: a
// Smile export matched through Shopify's customer export, every skip reason with its line, the dry run,
// the run and its id, the re-run, the undo, and the argument errors.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../infra/cli/main';
import { getCustomer } from '../../shared/data/customer-repository';
import { parseConfig } from '../../shared/config/schema';
import { applyConfig } from '../../shared/shops/apply-config';
import { createTestTable, scanAll, testEndpoint } from '../support/test-table';

jest.setTimeout(60_000);

const SHOP = 'import-cli-shop';
const tmp = mkdtempSync(join(tmpdir(), 'import-cli-'));
const file = (name: string, content: string) => {
  const path = join(tmp, name);
  writeFileSync(path, content);
  return path;
};

const MEMBERS = file(
  'smile.csv',
  [
    'Customer ID,Email,Points Balance,Points Spent,Date of birth,State,VIP tier',
    '\'8001,,"1,200",100,1990-04-05,member,Gold',
    ',Ada@Example.com,300,,,member,',
    ',,50,,,,',
    ',nobody@example.com,10,,,,',
    ',twin@example.com,10,,,,',
    ',dup@example.com,5,,,,',
    ',dup@example.com,6,,,,',
    '8009,,12x,,,,',
    '8010,,400,,,blocked,',
  ].join('\n'),
);
const CUSTOMERS = file(
  'customers_export.csv',
  [
    'Customer ID,First Name,Last Name,Email,Accepts Email Marketing',
    "'8001,Grace,Hopper,grace@example.com,yes",
    "'8002,Ada,Lovelace,ada@example.com,no",
    "'8003,Twin,One,twin@example.com,no",
    "'8004,Twin,Two,TWIN@example.com,no",
    "'8005,Dup,Licate,dup@example.com,no",
    "'8010,Blocked,Member,blocked@example.com,no",
  ].join('\n'),
);

let table: Awaited<ReturnType<typeof createTestTable>>;
beforeAll(async () => {
  table = await createTestTable();
  await applyConfig(
    parseConfig({
      shops: [
        {
          id: SHOP,
          name: 'Import CLI Shop',
          currency: 'USD',
          referral_base_url: 'https://import.example/',
          vip_tiers: [
            { id: 'silver', name: 'Silver', threshold_points: 500, position: 1, created_at: '2025-01-01T00:00:00.000Z' },
            { id: 'gold', name: 'Gold', threshold_points: 5000, position: 2, created_at: '2025-01-01T00:00:00.000Z' },
          ],
        },
      ],
    }),
  );
});
afterAll(async () => {
  await table.drop();
});

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main([...args, '--endpoint', testEndpoint(), '--table', table.tableName], {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const importArgs = ['import', MEMBERS, '--shop', SHOP, '--from', 'smile', '--customers', CUSTOMERS];
const shopItems = async () =>
  (await scanAll())
    .filter((item) => String(item.pk).startsWith(`SHOP#${SHOP}#`))
    .map((item) => JSON.stringify(item))
    .sort();

describe('loyalty import', () => {
  let importId = '';

  it('prints on a dry run what would happen, every skip reason with its line, and writes nothing', async () => {
    const before = await shopItems();
    const { code, out, err } = await cli(...importArgs, '--dry-run');
    expect(code).toBe(0);
    expect(out).toContain('Dry run: nothing written');
    expect(out).toMatch(/rows read: +9/);
    expect(out).toMatch(/matched by id: +2/);
    expect(out).toMatch(/matched by e-mail: +1/);
    expect(out).toMatch(/members would be created: +3/);
    expect(out).toMatch(/skipped: +6/);
    expect(out).toMatch(/unreadable \(unreadable value\): 1\n +line 9: /);
    expect(out).toMatch(/no_identifier \(no id or e-mail\): 1\n +line 4: /);
    expect(out).toMatch(/no_customer \(no platform customer\): 1\n +line 5: /);
    expect(out).toMatch(/ambiguous \(e-mail of several customers\): 1\n +line 6: /);
    expect(out).toMatch(/duplicate \(id or e-mail on several rows\): 2\n +line 7: .*\n +line 8: /);
    expect(out).toContain("line 2: customer 8001 named 'Gold', computed 'Silver'");
    expect(out).toMatch(/points after: +1900 \(if imported\)/);
    expect(out).not.toContain('Import id:');
    expect(err).toContain('progress: 3/3 rows');
    expect(await shopItems()).toEqual(before);
  });

  it('imports, ends with the import id, and a second run changes nothing', async () => {
    const first = await cli(...importArgs);
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/members created: +3/);
    importId = /Import id: ([0-9a-f]{16})$/.exec(first.out)![1]!;
    expect((await getCustomer(SHOP, '8001', true))?.record).toMatchObject({
      current_points: 1200,
      redeemed_points: 100,
      lifetime_points: 1300,
      date_of_birth: '1990-04-05',
      vip_tier_id: 'silver',
    });
    expect((await getCustomer(SHOP, '8002', true))?.record).toMatchObject({ current_points: 300, first_name: 'Ada' });
    expect((await getCustomer(SHOP, '8010', true))?.record.status).toBe('excluded');

    const before = await shopItems();
    const second = await cli(...importArgs);
    expect(second.code).toBe(0);
    expect(second.out).toMatch(/unchanged \(already imported\): +3/);
    expect(second.out).toMatch(/members created: +0/);
    expect(second.out).toContain(`Import id: ${importId}`);
    expect(await shopItems()).toEqual(before);
    // Another mode is another import.
    const set = await cli(...importArgs, '--mode', 'set', '--dry-run');
    expect(set.out).toMatch(/members would be updated: +3/);
  });

  it('undoes the import and reports it; the undo twice does nothing more', async () => {
    const undo = await cli('import', 'undo', importId, '--shop', SHOP);
    expect(undo.code).toBe(0);
    expect(undo.out).toMatch(/members removed \(created by the import\): +3/);
    expect(await getCustomer(SHOP, '8001', true)).toBeNull();
    const again = await cli('import', 'undo', importId, '--shop', SHOP);
    expect(again.out).toMatch(/members removed \(created by the import\): +0/);
  });

  it('refuses wrong arguments, an unknown shop, an unknown import and a file it cannot read, with a clear message', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['import', MEMBERS, '--shop', SHOP], /--from is required for 'import'/],
      [
        ['import', MEMBERS, '--shop', SHOP, '--from', 'acme'],
        /--from must be one of smile, loyaltylion, yotpo, rivo, growave, bon, native, not 'acme'/,
      ],
      [['import', MEMBERS, '--shop', SHOP, '--from', 'smile', '--mode', 'replace'], /--mode must be 'add' or 'set', not 'replace'/],
      [['import', '--shop', SHOP, '--from', 'smile'], /'import' takes exactly one FILE/],
      [['import', 'undo', 'xyz', '--shop', SHOP], /'xyz' is not an import id/],
      [['import', 'undo', importId, '--shop', SHOP, '--from', 'smile'], /--from does not apply to 'import undo'/],
      [['keys', 'list', '--shop', SHOP, '--dry-run'], /--dry-run does not apply to 'keys list'/],
      [['import', MEMBERS, '--shop', 'no-such-shop', '--from', 'smile'], /Shop 'no-such-shop' is not configured/],
      [['import', 'undo', '0123456789abcdef', '--shop', SHOP], /No import 0123456789abcdef for shop/],
      [['import', join(tmp, 'missing.csv'), '--shop', SHOP, '--from', 'smile'], /Cannot read the file '.*missing.csv': no such file/],
      [['import', file('bad.csv', 'name,colour\nx,y\n'), '--shop', SHOP, '--from', 'smile', '--customers', CUSTOMERS], /column/i],
    ];
    for (const [args, message] of cases) {
      const { code, err } = await cli(...args);
      expect({ args, code }).toEqual({ args, code: 1 });
      expect(err).toMatch(message);
      expect(err).not.toMatch(/^\s+at /m);
    }
  });
});
