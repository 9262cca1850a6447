// `loyalty imported-batches backfill` on a table an earlier release's `config apply` wrote: the balance a
// configuration file gave a member is a `BATCH#import` item without the ledger's index attribute, so the
// member's page showed no points expiring though the batch expires. The command puts it on the index (the page
// then shows it, as the expiry job will remove it), and a second run writes nothing.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { main } from '../../infra/cli/main';
import { parseConfig } from '../../shared/config/schema';
import { documentClient, tableName } from '../../shared/data/client';
import { readShopCatalog } from '../../shared/data/shop-repository';
import { importBatchKey } from '../../shared/data/items/import-batch';
import { setClock } from '../../shared/runtime/clock';
import { shopperMemberView } from '../../shared/shopper/shopper-program';
import { applyConfig } from '../../shared/shops/apply-config';
import { member, shopConfig } from '../fixtures/shop-config';
import { createTestTable, testEndpoint } from '../support/test-table';

jest.setTimeout(60_000);

const SHOP = 'old-batch';
const APPLIED = '2027-03-01T12:00:00.000Z';
let table: Awaited<ReturnType<typeof createTestTable>>;

beforeAll(async () => {
  table = await createTestTable();
  setClock(new Date(APPLIED));
  await applyConfig(
    parseConfig({
      shops: [
        shopConfig(
          SHOP,
          'old_batch_key_0001',
          { earning_settings: { points_expiry: { mode: 'batch', days: 30 } } },
          ['7001'],
          [member('7001', { current_points: 300, lifetime_points: 300 })],
        ),
      ],
    }),
  );
  setClock(null);
  // As an earlier release wrote it: the batch without the ledger's index attribute.
  await documentClient().send(
    new UpdateCommand({ TableName: tableName(), Key: importBatchKey(SHOP, '7001'), UpdateExpression: 'REMOVE earn_given_at' }),
  );
});
afterAll(async () => {
  await table.drop();
});

async function backfill(): Promise<{ code: number; out: string }> {
  const out: string[] = [];
  const code = await main(['imported-batches', 'backfill', '--endpoint', testEndpoint(), '--table', table.tableName], {
    out: (line) => out.push(line),
    err: (line) => out.push(line),
  });
  return { code, out: out.join('\n') };
}

const expiring = async () => (await shopperMemberView((await readShopCatalog(SHOP))!, '7001'))?.pointsExpiring;

describe('loyalty imported-batches backfill', () => {
  it("puts an earlier release's imported batch on the ledger's index once: the member's page then shows it", async () => {
    expect(await expiring()).toBeNull();

    const first = await backfill();
    expect(first).toEqual({ code: 0, out: expect.stringContaining('1 imported balance batches put on the ledger') });
    expect(await expiring()).toEqual({ points: 300, at: '2027-03-31T12:00:00.000Z' });

    const again = await backfill();
    expect(again).toEqual({ code: 0, out: expect.stringContaining('0 imported balance batches put on the ledger') });
    expect(await expiring()).toEqual({ points: 300, at: '2027-03-31T12:00:00.000Z' });
  });
});
