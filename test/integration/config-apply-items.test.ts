// What `config apply` writes, item for item: the demo configuration and the history configuration
// (members with earning and reward history, dates of birth, excluded members, store credit) applied
// with the clock held, then a re-apply, compared with test/fixtures/config-apply-items.jsonl. The file
// was written by the member-at-a-time loader (each member's e-mail postings in its enrolment
// transaction); the batched loader (postings first, chunks in flight, docs/performance.md#import) must
// write exactly the same items. Referral codes are drawn at random, so each is replaced by its
// member's name for the comparison. To write the file again after a deliberate change of the items:
// CONFIG_APPLY_ITEMS_WRITE=1 npx jest test/integration/config-apply-items.test.ts
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readConfigFile, parseConfig } from '../../shared/config/schema';
import { setClock } from '../../shared/runtime/clock';
import { applyConfig } from '../../shared/shops/apply-config';
import { historyConfig } from '../fixtures/history-config';
import { createTestTable, scanAll } from '../support/test-table';

const FIXTURE = join(__dirname, '..', 'fixtures', 'config-apply-items.jsonl');
const NOW = '2025-03-10T08:00:00.000Z';

let table: Awaited<ReturnType<typeof createTestTable>>;
beforeAll(async () => {
  table = await createTestTable();
  setClock(new Date(NOW));
});
afterAll(async () => {
  setClock(null);
  await table.drop();
});

/** The table as sorted JSON lines, each referral code replaced by `<code of SHOP/CUSTOMER>`. */
function normalised(items: Array<Record<string, unknown>>): string[] {
  const codes = new Map<string, string>();
  for (const item of items) {
    if (typeof item.referral_code === 'string' && typeof item.platform_customer_id === 'string') {
      codes.set(item.referral_code, `<code of ${String(item.shop_id)}/${item.platform_customer_id}>`);
    }
  }
  const replace = (text: string) => {
    let out = text;
    for (const [code, name] of codes) out = out.split(code).join(name);
    return out;
  };
  return items
    .map((item) => replace(JSON.stringify(Object.fromEntries(Object.entries(item).sort(([a], [b]) => a.localeCompare(b))))))
    .sort();
}

describe('config apply, item for item', () => {
  it('writes the same items as the member-at-a-time loader did, and a re-apply changes none', async () => {
    const demo = readConfigFile(join(__dirname, '..', '..', 'config', 'demo.json'));
    // Rewards without a creation date get the real time when the file is read: given one here.
    const document = historyConfig();
    for (const shop of document.shops) shop.rewards = shop.rewards.map((reward) => ({ ...reward, created_at: NOW }));
    const history = parseConfig(document);

    const summaries = [...(await applyConfig(demo)), ...(await applyConfig(history))];
    const first = normalised(await scanAll());
    const again = [...(await applyConfig(demo)), ...(await applyConfig(history))];

    expect(normalised(await scanAll())).toEqual(first);
    expect(summaries.map((summary) => [summary.shopId, summary.membersImported, summary.membersKept])).toEqual([
      ['demo', 8, 0],
      ['credit-demo', 2, 0],
      ['hist-points', 4, 0],
      ['hist-credit', 1, 0],
    ]);
    expect(again.map((summary) => [summary.shopId, summary.membersImported, summary.membersKept])).toEqual([
      ['demo', 0, 8],
      ['credit-demo', 0, 2],
      ['hist-points', 0, 4],
      ['hist-credit', 0, 1],
    ]);
    if (process.env.CONFIG_APPLY_ITEMS_WRITE === '1') writeFileSync(FIXTURE, `${first.join('\n')}\n`);
    expect(first).toEqual(readFileSync(FIXTURE, 'utf8').trimEnd().split('\n'));
  });
});
