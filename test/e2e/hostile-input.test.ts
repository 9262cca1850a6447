// Property-based hostile input: random and malformed path identifiers, query strings, bodies and
// content types at every route. Never a 5XX, always the error envelope, nothing written when refused.
import fc from 'fast-check';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { Twin } from '../../infra/local/twin';
import { ROUTES, type Route } from '../../shared/http/routes';
import { documentClient, tableName } from '../../shared/data/client';
import { KEYS, e2eConfig } from '../fixtures/e2e-config';
import { startTestTwin } from '../support/twin';

jest.setTimeout(120_000);

let twin: Twin;
beforeAll(async () => {
  twin = await startTestTwin(e2eConfig(), { throttling: false });
});
afterAll(async () => {
  await twin.stop();
});

const RUNS = Number(process.env.HOSTILE_RUNS ?? 20);
// A fixed seed keeps `npm test` repeatable; `npm run bench:invariants` explores with random seeds.
const SEED = process.env.HOSTILE_SEED === 'random' ? undefined : Number(process.env.HOSTILE_SEED ?? 20261122);

const identifier = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom('..', '../..', '%2e%2e%2f', 'demo_full_key', 'KEY#abc', 'SHOP#e2e#C#1001', '1001#x', ' 1001', '1001 ', '-1', '0', '1e3', 'a@b', '@', 'x'.repeat(3000), `${'a'.repeat(2100)}@example.com`, '99999999999999999999999'),
  fc.emailAddress(),
  fc.nat().map(String),
);
const queryValue = fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('', '-', '0', '-1', '101', '1.5', 'true', 'null', '[]', '%00', 'x'.repeat(2000)));
const queryName = fc.oneof(
  fc.constantFrom('page[number]', 'page[size]', 'sort', 'exclude_vip', 'filter[email]', 'filter[status]', 'filter[loyalty_status]', 'filter[is_active]', 'filter[customer_identifier]', 'filter[]', 'filter[[x]]', 'page', 'filter'),
  fc.string({ maxLength: 15 }),
);
const body = fc.oneof(
  fc.jsonValue().map((value) => JSON.stringify(value)),
  fc.string({ maxLength: 200 }),
  fc.constantFrom('', '{', '{"adjustment":', 'null', '[]', '"x"', '{"adjustment": 1e400}', '{"platform_customer_id": {"$gt": ""}}', '\u0000', '{"data":{"attributes":null}}'),
  fc.record({ adjustment: fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constant(null)), customer_identifier: identifier, points: fc.oneof(fc.integer(), fc.double()), platform_customer_id: identifier, date_of_birth: fc.oneof(fc.string(), fc.constant(null)) }, { requiredKeys: [] }).map((value) => JSON.stringify(value)),
);
const contentType = fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=utf-16', 'multipart/form-data; boundary=x', '');

function url(route: Route, params: string[], query: Array<[string, string]>, rawPath: boolean): string {
  let i = 0;
  const path = route.path.replace(/\{[^}]+\}/g, () => {
    const value = params[i++] ?? '';
    return rawPath ? value.replace(/[?#\s]/g, '') || 'x' : encodeURIComponent(value) || 'x';
  });
  const search = new URLSearchParams(query).toString();
  return `${twin.url}${path}${search ? `?${search}` : ''}`;
}

const snapshot = async () => {
  const items = await documentClient().send(new ScanCommand({ TableName: tableName() }));
  return JSON.stringify((items.Items ?? []).map((item) => `${item.pk}|${item.sk}|${JSON.stringify(item)}`).sort());
};

describe('hostile input at every route', () => {
  it.each(ROUTES.map((route) => [route.name, route] as const))('%s never answers 5XX and refuses in the envelope without writing', async (_name, route) => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(identifier, { minLength: 2, maxLength: 2 }),
        fc.array(fc.tuple(queryName, queryValue), { maxLength: 4 }),
        body,
        contentType,
        fc.boolean(),
        async (params, query, payload, type, rawPath) => {
          const before = route.method === 'GET' ? null : await snapshot();
          const response = await fetch(url(route, params, query, rawPath), {
            method: route.method,
            headers: { Authorization: KEYS.full, ...(type ? { 'Content-Type': type } : {}) },
            ...(route.method === 'GET' ? {} : { body: payload }),
          });
          const text = await response.text();

          expect(response.status).toBeLessThan(500);
          if (response.status >= 400) {
            const parsed = JSON.parse(text);
            expect(parsed).toEqual({ errors: [{ status: String(response.status), title: expect.any(String), detail: expect.any(String) }] });
            if (before !== null) expect(await snapshot()).toBe(before);
          }
        },
      ),
      { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }) },
    );
  });
});
