// Real answers of the staff-only API routes (GET /admin/api/overview and GET /admin/api/members), successes and
// refusals, validated against the OpenAPI document, on the twin with the demo configuration.
import { readFileSync } from 'node:fs';
import { DEMO_CONFIG, type Twin } from '../../infra/local/twin';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../../shared/data/client';
import { nameIndexMarkerKey } from '../../shared/data/items/name-token';
import { ADMIN_PAGES, STAFF_API_PREFIX } from '../../shared/runtime/entry-points';
import { openApiValidator } from '../support/openapi-validator';
import { type ApiResponse, sendJson, startTestTwin } from '../support/twin';

jest.setTimeout(120_000);

let twin: Twin;

/** The demo configuration, its shop given a Dev Dashboard app (the ID tokens are signed with its secret). */
function demoWithApp(): unknown {
  const config = JSON.parse(readFileSync(DEMO_CONFIG, 'utf8')) as { shops: Array<{ id: string; platform: Record<string, unknown> }> };
  for (const shop of config.shops) {
    shop.platform.client_id ??= `${shop.id}-client-id`;
    shop.platform.client_secret ??= `${shop.id}-client-secret`;
  }
  return config;
}

beforeAll(async () => {
  twin = await startTestTwin(demoWithApp(), { throttling: false });
});
afterAll(async () => {
  await twin?.stop();
});

async function idToken(shop = 'demo'): Promise<string> {
  const response = await fetch(`${twin.platformUrl}/_id_tokens`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ shop, user_id: '42' }),
  });
  return ((await response.json()) as { token: string }).token;
}

const asStaff = async (path: string, shop = 'demo'): Promise<ApiResponse> =>
  sendJson(`${twin.url}${STAFF_API_PREFIX}${path}`, 'GET', { Authorization: `Bearer ${await idToken(shop)}` });

/** The search by name on a shop whose name index is not complete (as a shop from before it): its marker deleted. */
async function withoutNameIndex(): Promise<ApiResponse> {
  await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: nameIndexMarkerKey('credit-demo') }));
  return asStaff('/members?filter[name]=lea', 'credit-demo');
}

interface Sample {
  route: string;
  call: () => Promise<ApiResponse>;
  status: number;
}

/** The members' second page, from the first page's cursor. */
async function secondPage(): Promise<ApiResponse> {
  const first = await asStaff('/members?sort=joined&page[size]=2');
  const cursor = (first.body as { meta: { page: { next_cursor: string } } }).meta.page.next_cursor;
  return asStaff(`/members?sort=joined&page[size]=2&page[cursor]=${encodeURIComponent(cursor)}`);
}

const SAMPLES: Sample[] = [
  { route: 'programOverview', call: () => asStaff('/overview'), status: 200 },
  { route: 'programOverview', call: () => asStaff('/overview?from=2025-01-01&to=2025-12-31'), status: 200 },
  { route: 'programOverview', call: () => asStaff('/overview?from=2024-01-01&to=2025-12-31'), status: 400 },
  { route: 'programOverview', call: () => asStaff('/overview?from=2025-02-30'), status: 400 },
  { route: 'programOverview', call: () => sendJson(`${twin.url}${STAFF_API_PREFIX}/overview`, 'GET', {}), status: 401 },
  { route: 'browseMembers', call: () => asStaff('/members'), status: 200 },
  { route: 'browseMembers', call: () => asStaff('/members?sort=-last_activity&filter[tier]=gold'), status: 200 },
  {
    route: 'browseMembers',
    call: () => asStaff('/members?sort=last_activity&filter[tier]=none&filter[loyalty_status]=member'),
    status: 200,
  },
  { route: 'browseMembers', call: () => asStaff('/members?filter[loyalty_status]=excluded'), status: 200 },
  { route: 'browseMembers', call: secondPage, status: 200 },
  { route: 'browseMembers', call: () => asStaff('/members?filter[name]=Ada'), status: 200 },
  { route: 'browseMembers', call: () => asStaff('/members?filter[name]=a&page[size]=1'), status: 200 },
  { route: 'browseMembers', call: () => asStaff('/members?filter[name]=Ada&sort=points'), status: 400 },
  { route: 'browseMembers', call: withoutNameIndex, status: 503 },
  { route: 'browseMembers', call: () => asStaff('/members?sort=points&filter[tier]=gold'), status: 400 },
  { route: 'browseMembers', call: () => asStaff('/members?page[cursor]=not-a-cursor'), status: 400 },
  {
    route: 'browseMembers',
    call: () => sendJson(`${twin.url}${STAFF_API_PREFIX}/members`, 'GET', { Authorization: 'demo_full_key' }),
    status: 401,
  },
  { route: 'staffProgram', call: () => asStaff('/program'), status: 200 },
  { route: 'staffProgram', call: () => asStaff('/program?customer=1001'), status: 400 },
  { route: 'staffProgram', call: () => sendJson(`${twin.url}${STAFF_API_PREFIX}/program`, 'GET', {}), status: 401 },
];

describe('staff answers against the OpenAPI document', () => {
  const staffRoutes = ADMIN_PAGES.filter((page) => page.path.startsWith(`${STAFF_API_PREFIX}/`));

  it('has samples for every staff-only API route', () => {
    expect(new Set(SAMPLES.map((sample) => sample.route))).toEqual(new Set(staffRoutes.map((route) => route.name)));
  });

  it('matches the documented schema for every sample', async () => {
    const validator = openApiValidator();
    const problems: string[] = [];
    for (const sample of SAMPLES) {
      const route = staffRoutes.find((candidate) => candidate.name === sample.route)!;
      const response = await sample.call();
      if (response.status !== sample.status) problems.push(`${sample.route}: expected ${sample.status}, got ${response.status}`);
      const problem = validator.check(route.path, route.method, response.status, response.body);
      if (problem) problems.push(problem);
    }
    expect(problems).toEqual([]);
  });

  it('would catch an answer that drifted from the document', () => {
    const validator = openApiValidator();
    expect(validator.check('/admin/api/members', 'GET', 200, { data: [], meta: { page: { size: 20, next_cursor: null } } })).toMatch(
      /sort/,
    );
    expect(validator.check('/admin/api/overview', 'GET', 200, { data: { type: 'program_overview', id: 'demo', attributes: {} } })).toMatch(
      /members/,
    );
  });
});
