// filter[email] through the e-mail search postings, against DynamoDB Local: a property test compares the
// indexed search with a brute-force substring match over random addresses (Unicode, +tags, dots, upper
// case) after random enrolments, changes of address and status, and erasures; the index answers only
// once the shop's marker is written, and the scan answers queries shorter than a gram and grams too
// common for the index, with the same pages and totals.
import fc from 'fast-check';
import { createCustomer, getCustomer, updateCustomer } from '../../shared/data/customer-repository';
import { type CustomerListQuery, type CustomerSortField, listCustomers } from '../../shared/data/customer-list';
import { compareRecords } from '../../shared/data/email-search';
import { markEmailIndexComplete } from '../../shared/data/email-index-repository';
import { findByEmailIndex, forgetEmailIndexReadiness, probedGrams } from '../../shared/data/email-search';
import { eraseCustomer } from '../../shared/data/erasure-repository';
import { normalisedEmail } from '../../shared/data/items/customer-profile';
import type { CustomerRecord, LoyaltyStatus } from '../../shared/domain/customer';
import { customerRecord } from '../fixtures/customer-record';
import { createTestTable } from '../support/test-table';

jest.setTimeout(240_000);

let table: Awaited<ReturnType<typeof createTestTable>>;
beforeAll(async () => {
  table = await createTestTable();
});
afterAll(async () => {
  await table.drop();
});
afterEach(() => forgetEmailIndexReadiness());

const SORTS: Record<CustomerSortField, keyof CustomerRecord> = {
  created_at: 'created_at',
  points: 'current_points',
  lifetime_points: 'lifetime_points',
  redeemed_points: 'redeemed_points',
};

/** What the list must answer, computed from the records alone. */
function bruteForce(records: Iterable<CustomerRecord>, query: CustomerListQuery) {
  const matched = [...records]
    .filter((record) => normalisedEmail(record.email).includes(query.emailContains!))
    .filter((record) => query.status === undefined || record.status === query.status)
    .sort(compareRecords(SORTS[query.sort], query.descending));
  return { ids: matched.slice(query.offset, query.offset + query.limit).map((r) => r.platform_customer_id), total: matched.length };
}

async function listed(shopId: string, query: CustomerListQuery) {
  const page = await listCustomers(shopId, query);
  return { ids: page.records.map((r) => r.platform_customer_id), total: page.total };
}

// A small alphabet, so that random addresses share grams and queries find several members.
const char = fc.constantFrom('a', 'b', 'A', 'B', '.', '+', 'é', 'É', 'ß', '😀', 'ω', 'Ω', '1', '_', 'x');
const localPart = fc.array(char, { minLength: 1, maxLength: 12 }).map((chars) => chars.join(''));
const shortEmail = fc
  .tuple(localPart, fc.option(localPart, { nil: undefined }), fc.constantFrom('ex.io', 'EX.io', 'bé.fr', 'ab.x'))
  .map(([local, tag, domain]) => `${local}${tag ? `+${tag}` : ''}@${domain}`);
// More grams than are posted one by one: the long-address partition.
const email = fc.oneof(
  { weight: 3, arbitrary: shortEmail },
  { weight: 1, arbitrary: shortEmail.map((e) => `Lengthy.Mailbox.0123456789.${e}`) },
);

type Step =
  | { kind: 'enrol'; id: number; email: string; points: number }
  | { kind: 'email'; id: number; email: string }
  | { kind: 'status'; id: number }
  | { kind: 'erase'; id: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('enrol' as const), id: fc.nat(11), email, points: fc.nat(5) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('email' as const), id: fc.nat(11), email }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('status' as const), id: fc.nat(11) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('erase' as const), id: fc.nat(11) }) },
);

let shopSerial = 0;

describe('filter[email] through the e-mail index', () => {
  it('answers what a brute-force substring match answers, after any enrolments, changes and erasures', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 4, maxLength: 24 }),
        fc.array(fc.tuple(fc.nat(40), fc.integer({ min: 3, max: 8 }), fc.constantFrom<CustomerSortField>('created_at', 'points')), {
          minLength: 3,
          maxLength: 6,
        }),
        fc.constantFrom<LoyaltyStatus | undefined>(undefined, 'member', 'excluded'),
        async (steps, probes, status) => {
          const shopId = `prop-${(shopSerial += 1)}`;
          await markEmailIndexComplete(shopId, '2025-01-01T00:00:00.000Z');
          const model = new Map<string, CustomerRecord>();
          for (const [index, one] of steps.entries()) {
            const id = String(1000 + one.id);
            const current = await getCustomer(shopId, id, true);
            if (one.kind === 'enrol') {
              if (current) continue;
              const record = customerRecord({
                shop_id: shopId,
                platform_customer_id: id,
                email: one.email,
                referral_code: `R${shopId}-${id}`,
                current_points: one.points,
                created_at: `2025-01-01T00:00:${String(index).padStart(2, '0')}.000Z`,
              });
              expect(await createCustomer(record)).toBe('created');
              model.set(id, record);
            } else if (!current) {
              continue;
            } else if (one.kind === 'erase') {
              await eraseCustomer(shopId, id);
              model.delete(id);
            } else {
              const changes =
                one.kind === 'email' ? { email: one.email } : { status: current.record.status === 'member' ? 'excluded' : 'member' };
              const result = await updateCustomer(current, changes as Partial<CustomerRecord>, '2025-02-01T00:00:00.000Z');
              expect(result.written).toBe(true);
              model.set(id, { ...model.get(id)!, ...changes } as CustomerRecord);
            }
          }
          // Queries cut from the addresses held (and from one no longer held), of every length from a gram up.
          const texts = [...model.values(), ...steps.flatMap((one) => ('email' in one ? [{ email: one.email }] : []))].map((r) =>
            Array.from(normalisedEmail(r.email)),
          );
          for (const [at, length, sort] of probes) {
            const text = texts[at % Math.max(texts.length, 1)] ?? Array.from('ab.');
            const start = at % Math.max(text.length - 2, 1);
            const emailContains = text.slice(start, start + length).join('');
            const query: CustomerListQuery = {
              sort,
              descending: at % 2 === 0,
              emailContains,
              offset: 0,
              limit: 3,
              ...(status ? { status } : {}),
            };
            if (Array.from(emailContains).length >= 3)
              expect(await findByEmailIndex(shopId, emailContains, async () => model.size)).not.toBeNull();
            expect(await listed(shopId, query)).toEqual(bruteForce(model.values(), query));
            expect(await listed(shopId, { ...query, offset: 3 })).toEqual(bruteForce(model.values(), { ...query, offset: 3 }));
          }
        },
      ),
      { numRuns: 25, seed: 26 },
    );
  });

  it('reads the postings only once the shop is marked complete, and finds the same members either way', async () => {
    await createCustomer(
      customerRecord({ shop_id: 'marker', platform_customer_id: '1', email: 'Grace.Hopper@Navy.mil', referral_code: 'M1' }),
    );
    await createCustomer(customerRecord({ shop_id: 'marker', platform_customer_id: '2', email: 'ada@example.com', referral_code: 'M2' }));
    const query: CustomerListQuery = { sort: 'created_at', descending: true, emailContains: 'hopper', offset: 0, limit: 25 };

    expect(await findByEmailIndex('marker', 'hopper', async () => 2)).toBeNull();
    const scanned = await listed('marker', query);
    await markEmailIndexComplete('marker', '2025-01-01T00:00:00.000Z');
    expect((await findByEmailIndex('marker', 'hopper', async () => 2))?.ids).toEqual(['1']);
    expect(await listed('marker', query)).toEqual(scanned);
    expect(scanned).toEqual({ ids: ['1'], total: 1 });
  });

  it('leaves queries shorter than a gram, and grams common to much of the shop, to the scan', async () => {
    const shopId = 'common';
    await markEmailIndexComplete(shopId, '2025-01-01T00:00:00.000Z');
    const records = Array.from({ length: 230 }, (_, i) =>
      customerRecord({
        shop_id: shopId,
        platform_customer_id: String(5000 + i),
        email: `user${i}@common.io`,
        referral_code: `C${i}`,
        // Distinct: the scan leaves members of equal sort values in the index's order.
        created_at: new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString(),
      }),
    );
    for (let start = 0; start < records.length; start += 20)
      await Promise.all(records.slice(start, start + 20).map((r) => createCustomer(r)));
    const members = async () => records.length;

    expect(await findByEmailIndex(shopId, 'io', members)).toBeNull();
    expect(await findByEmailIndex(shopId, 'common', members)).toBeNull();
    expect((await findByEmailIndex(shopId, 'user17@', members))?.ids).toEqual([records[17]!.platform_customer_id]);
    for (const emailContains of ['io', 'common', 'user1', 'user17@', 'r2']) {
      const query: CustomerListQuery = { sort: 'created_at', descending: false, emailContains, offset: 10, limit: 25 };
      expect(await listed(shopId, query)).toEqual(bruteForce(records, query));
    }
  });

  it('reads the rarest-looking grams of a query first', () => {
    expect(probedGrams('john.smith4711@gmail.com').slice(0, 3)).toEqual(['471', '711', 'h47']);
    expect(probedGrams('abc')).toEqual(['abc']);
  });
});
