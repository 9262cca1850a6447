// `loyalty config apply` shows a large file's members loading on stderr: members loaded of how many,
// the rate and the time left, as `loyalty import` shows its rows (one reporter, shared/runtime/progress.ts).
// The reporter's clock is a counter moved one second a reading, so nothing sleeps and the lines are exact.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configApply } from '../../infra/cli/commands';
import { memberProgressOf } from '../../infra/cli/main';
import { countCustomers } from '../../shared/data/customer-list';
import { createTestTable } from '../support/test-table';

const MEMBERS = 100;
const CREATED_AT = '2025-01-01T00:00:00.000Z';

const document = {
  shops: [
    {
      id: 'progress-shop',
      name: 'Progress shop',
      currency: 'USD',
      referral_base_url: 'https://progress.example/',
      platform: {
        customers: Array.from({ length: MEMBERS }, (_, i) => ({
          id: String(5001 + i),
          email: `m${5001 + i}@example.com`,
          created_at: CREATED_AT,
        })),
      },
      members: Array.from({ length: MEMBERS }, (_, i) => ({
        platform_customer_id: String(5001 + i),
        current_points: i,
        lifetime_points: i,
        enrolled_at: CREATED_AT,
      })),
    },
  ],
};

let table: Awaited<ReturnType<typeof createTestTable>>;
const tmp = mkdtempSync(join(tmpdir(), 'config-progress-'));
beforeAll(async () => {
  table = await createTestTable();
});
afterAll(async () => {
  await table.drop();
  rmSync(tmp, { recursive: true, force: true });
});

describe('config apply on stderr', () => {
  it("prints each shop's members loaded of how many, the rate and the time left, and the report on stdout", async () => {
    const file = join(tmp, 'members.json');
    writeFileSync(file, JSON.stringify(document));
    const out: string[] = [];
    const err: string[] = [];
    let readings = 0;
    const io = { out: (line: string) => void out.push(line), err: (line: string) => void err.push(line), errIsTty: false };

    await configApply(file, { usagePlan: null, print: io.out, progress: memberProgressOf(io, { now: () => readings++ * 1_000 }) });

    // 100 members over 32 chunks in flight: chunks of 4. A line at the start (after the quiet first
    // second), then one per tenth of the members, the last with the time in all.
    expect(err).toEqual([
      'shop progress-shop: 0/100 members (time left not known yet)',
      'shop progress-shop: 12/100 members (3.0 members/s, 29 s left)',
      'shop progress-shop: 24/100 members (3.4 members/s, 22 s left)',
      'shop progress-shop: 36/100 members (3.6 members/s, 18 s left)',
      'shop progress-shop: 48/100 members (3.7 members/s, 14 s left)',
      'shop progress-shop: 60/100 members (3.8 members/s, 11 s left)',
      'shop progress-shop: 72/100 members (3.8 members/s, 7 s left)',
      'shop progress-shop: 84/100 members (3.8 members/s, 4 s left)',
      'shop progress-shop: 96/100 members (3.8 members/s, 1 s left)',
      'shop progress-shop: 100/100 members (3.8 members/s, 26 s in all)',
    ]);
    expect(out).toContain('  members: 100 imported, 0 already present and kept as they are');
    expect(await countCustomers('progress-shop')).toMatchObject({ member: MEMBERS });
  });
});
