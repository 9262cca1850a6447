// Matching an export's rows through the platform: platformCustomerDirectory against the platform
// simulator's Admin GraphQL (nodes(ids:) in batches, customers(query:) with OR-ed e-mail phrases), as a
// CLI run against the twin reaches it through the simulator's URL, throttled answers included.
import { startPlatformSimulator, type PlatformSimulator } from '../../infra/local/simulator/platform-simulator';
import { parseCustomerEmailQuery } from '../../infra/local/simulator/simulator-resolvers';
import { platformCustomerDirectory } from '../../shared/import/customer-directory';
import { matchRows } from '../../shared/import/match-rows';
import { readImportFile } from '../../shared/import/read-import-file';
import { resetEnv } from '../../shared/runtime/env';
import { emailSearchQuery, EMAILS_PER_SEARCH, MAX_IDS_PER_CALL } from '../../shared/platform/shopify-customer-search';

let simulator: PlatformSimulator;
const bodies: string[] = [];
const recordingFetch: typeof fetch = async (input, init) => {
  bodies.push(String(init?.body ?? ''));
  return fetch(input, init);
};

const many = Array.from({ length: 600 }, (_, index) => ({
  id: String(8000 + index),
  email: `member${index}@example.com`,
  first_name: 'Member',
  last_name: String(index),
  created_at: '2024-01-01T00:00:00.000Z',
}));

beforeAll(async () => {
  // The CLI has named its table by the time it matches; the lookups read only the platform settings.
  process.env.TABLE_NAME ??= 'import-matching';
  resetEnv();
  simulator = await startPlatformSimulator({
    port: 0,
    shops: {
      demo: {
        customers: [
          { id: '7101', email: 'Ada@Example.com', first_name: 'Ada', last_name: 'Lovelace', created_at: '2024-03-01T10:00:00.000Z' },
          { id: '7102', email: 'grace@example.com', first_name: 'Grace', last_name: 'Hopper', created_at: null },
          { id: '7103', email: 'twin@example.com', first_name: 'One', last_name: '', created_at: null },
          { id: '7104', email: 'TWIN@example.com', first_name: 'Two', last_name: '', created_at: null },
          { id: '7105', email: 'quote"d@example.com', first_name: 'Q', last_name: '', created_at: null },
          ...many,
        ],
      },
      other: { customers: [{ id: '9001', email: 'elsewhere@example.com', first_name: '', last_name: '', created_at: null }] },
    },
  });
});

afterAll(async () => {
  await simulator.stop();
});

beforeEach(() => {
  bodies.length = 0;
});

const directory = (shop = 'demo') =>
  platformCustomerDirectory(shop, { platformBaseUrl: simulator.url, fetchImpl: recordingFetch, maxAttempts: 3 });

describe('platformCustomerDirectory against the simulator', () => {
  it('finds customers by id, leaving out unknown ids and other shops', async () => {
    const found = await directory().byIds(['7101', '9001', '123']);

    expect([...found.keys()]).toEqual(['7101']);
    expect(found.get('7101')).toEqual({
      id: '7101',
      email: 'Ada@Example.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
      createdAt: '2024-03-01T10:00:00.000Z',
    });
  });

  it('finds customers by e-mail, case-insensitively, several for a shared address, an escaped quote', async () => {
    const found = await directory().byEmails(['ada@example.com', 'twin@example.com', 'quote"d@example.com', 'nobody@example.com']);

    expect(found.get('ada@example.com')!.map((c) => c.id)).toEqual(['7101']);
    expect(
      found
        .get('twin@example.com')!
        .map((c) => c.id)
        .sort(),
    ).toEqual(['7103', '7104']);
    expect(found.get('quote"d@example.com')!.map((c) => c.id)).toEqual(['7105']);
    expect(found.has('nobody@example.com')).toBe(false);
  });

  it('asks in batches: 250 ids a call, 50 addresses a search', async () => {
    const ids = many.map((customer) => customer.id);
    const emails = many.map((customer) => customer.email);

    expect((await directory().byIds(ids)).size).toBe(600);
    expect(bodies).toHaveLength(Math.ceil(600 / MAX_IDS_PER_CALL));
    bodies.length = 0;
    expect((await directory().byEmails(emails)).size).toBe(600);
    expect(bodies).toHaveLength(Math.ceil(600 / EMAILS_PER_SEARCH));
  });

  it('waits out a throttled answer and carries on', async () => {
    const faults = (body: string) =>
      fetch(`${simulator.url}/_faults`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body });
    await faults('{"customers":"throttled"}');
    const answers: string[] = [];
    // The bucket refills after the first (throttled) answer.
    const refilling: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      answers.push(await response.clone().text());
      if (answers.length === 1) await faults('{"customers":"ok"}');
      return response;
    };

    const found = await platformCustomerDirectory('demo', { platformBaseUrl: simulator.url, fetchImpl: refilling }).byIds(['7102']);

    expect([...found.keys()]).toEqual(['7102']);
    expect(answers).toHaveLength(2);
    expect(answers[0]).toContain('THROTTLED');
  });

  it('stops with the access the store has not granted when Shopify denies the Customer object, once, without retrying', async () => {
    const faults = (body: string) =>
      fetch(`${simulator.url}/_faults`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body });
    await faults('{"customers":"access_denied"}');
    try {
      await expect(directory().byEmails(['grace@example.com'])).rejects.toThrow('protected customer data');
      expect(bodies).toHaveLength(1);
    } finally {
      await faults('{"customers":"ok"}');
    }
  });

  it('matches a LoyaltyLion export: by id, by e-mail, and the skip reasons the platform decides', async () => {
    const file = [
      '{"merchant_id":"7101","email":"x@example.com","points_approved":10}',
      '{"merchant_id":"","email":"GRACE@example.com","points_approved":20}',
      '{"merchant_id":"5555","email":null,"points_approved":30}',
      '{"merchant_id":null,"email":"twin@example.com","points_approved":40}',
      '{"merchant_id":null,"email":"nobody@example.com","points_approved":50}',
    ].join('\n');
    const { rows } = readImportFile(file, 'loyaltylion');

    const { matched, skipped } = await matchRows(rows, directory());

    expect(matched.map((m) => [m.row.line, m.customer.id, m.matchedBy])).toEqual([
      [1, '7101', 'id'],
      [2, '7102', 'email'],
    ]);
    expect(skipped.map((s) => [s.line, s.reason])).toEqual([
      [3, 'no_customer'],
      [4, 'ambiguous'],
      [5, 'no_customer'],
    ]);
  });
});

describe("the simulator's customer search", () => {
  it('reads OR-ed e-mail terms, quoted or not, as the adapter writes them', () => {
    expect(parseCustomerEmailQuery(emailSearchQuery(['A@example.com', 'quote"d@example.com']))).toEqual([
      'a@example.com',
      'quote"d@example.com',
    ]);
    expect(parseCustomerEmailQuery('email:a@example.com OR email:"b@example.com"')).toEqual(['a@example.com', 'b@example.com']);
    expect(parseCustomerEmailQuery('first_name:Ada')).toMatch(/searches customers by email/);
    expect(parseCustomerEmailQuery('email:a@example.com AND email:b@example.com')).toMatch(/searches customers by email/);
  });
});
