// Real answers of every shopper route, successes and refusals, validated against the OpenAPI document.
import { DEMO_CONFIG, type Twin } from '../../infra/local/twin';
import { SHOPPER_ROUTES } from '../../shared/runtime/entry-points';
import { openApiValidator } from '../support/openapi-validator';
import { sessionToken, viaProxy, withToken } from '../support/shopper';
import { type ApiResponse, startTestTwin } from '../support/twin';

let twin: Twin;

beforeAll(async () => {
  twin = await startTestTwin(DEMO_CONFIG, { throttling: false });
});
afterAll(async () => {
  await twin?.stop();
});

interface Sample {
  route: string;
  call: () => Promise<ApiResponse>;
  status: number;
}

const CART = {
  lines: [
    { variant_id: '41002', product_id: '9001', quantity: 2, price: '89.00', gift_card: false },
    { variant_id: '41007', product_id: '9004', quantity: 1, price: '25.00', gift_card: true },
  ],
  discount: '10.00',
  currency: 'USD',
};

const token = (customerId?: string) => sessionToken(twin.platformUrl, 'demo', customerId);

const SAMPLES: Sample[] = [
  { route: 'shopperProgram', call: () => viaProxy(twin.url, 'GET', '/program'), status: 200 },
  { route: 'shopperProgram', call: async () => withToken(twin.url, await token('1005'), 'GET', '/program'), status: 200 },
  { route: 'shopperProgram', call: () => viaProxy(twin.url, 'GET', '/program', { secret: 'wrong' }), status: 401 },
  { route: 'shopperMember', call: () => viaProxy(twin.url, 'GET', '/member'), status: 200 },
  { route: 'shopperMember', call: () => viaProxy(twin.url, 'GET', '/member', { customerId: '1001' }), status: 200 },
  { route: 'shopperMember', call: () => viaProxy(twin.url, 'GET', '/member', { customerId: '1006' }), status: 200 },
  { route: 'shopperMember', call: () => viaProxy(twin.url, 'GET', '/member', { customerId: '1012' }), status: 200 },
  { route: 'shopperJoin', call: () => viaProxy(twin.url, 'POST', '/member', { customerId: '1012' }), status: 201 },
  { route: 'shopperJoin', call: () => viaProxy(twin.url, 'POST', '/member', { customerId: '1012' }), status: 200 },
  { route: 'shopperJoin', call: () => viaProxy(twin.url, 'POST', '/member'), status: 401 },
  { route: 'shopperActivity', call: () => viaProxy(twin.url, 'GET', '/member/activity', { customerId: '1001' }), status: 200 },
  { route: 'shopperRewards', call: () => viaProxy(twin.url, 'GET', '/member/rewards', { customerId: '1001' }), status: 200 },
  { route: 'shopperRewards', call: () => viaProxy(twin.url, 'GET', '/member/rewards', { customerId: '1011' }), status: 404 },
  {
    route: 'shopperRewards',
    call: () => viaProxy(twin.url, 'GET', '/member/rewards', { customerId: '1001', params: [['page[size]', 'x']] }),
    status: 400,
  },
  { route: 'shopperActivity', call: () => viaProxy(twin.url, 'GET', '/member/activity', { customerId: '1011' }), status: 404 },
  { route: 'shopperActivity', call: async () => withToken(twin.url, await token(), 'GET', '/member/activity'), status: 401 },
  {
    route: 'shopperActivity',
    call: () => viaProxy(twin.url, 'GET', '/member/activity', { customerId: '1001', params: [['page[size]', 'x']] }),
    status: 400,
  },
  {
    route: 'shopperRedeem',
    call: async () => withToken(twin.url, await token('1001'), 'POST', '/rewards/five-off/redeem', {}),
    status: 201,
  },
  {
    route: 'shopperRedeem',
    call: async () => withToken(twin.url, await token('1004'), 'POST', '/rewards/ten-percent/redeem', {}),
    status: 422,
  },
  {
    route: 'shopperRedeem',
    call: async () => withToken(twin.url, await token('1004'), 'POST', '/rewards/free-ship/redeem', {}),
    status: 403,
  },
  {
    route: 'shopperRedeem',
    call: async () => withToken(twin.url, await token('1004'), 'POST', '/rewards/welcome-gift/redeem', {}),
    status: 400,
  },
  {
    route: 'shopperRedeem',
    call: async () => withToken(twin.url, await token('1011'), 'POST', '/rewards/five-off/redeem', {}),
    status: 404,
  },
  { route: 'shopperRedeem', call: async () => withToken(twin.url, await token(), 'POST', '/rewards/five-off/redeem', {}), status: 401 },
  {
    route: 'shopperRefund',
    call: async () => {
      const redeemed = await withToken(twin.url, await token('1005'), 'POST', '/rewards/five-off/redeem', {});
      return withToken(twin.url, await token('1005'), 'POST', `/member/rewards/${redeemed.body.data.id}/refund`);
    },
    status: 200,
  },
  {
    route: 'shopperRefund',
    call: async () => withToken(twin.url, await token('1005'), 'POST', '/member/rewards/nope/refund'),
    status: 404,
  },
  { route: 'shopperRefund', call: async () => withToken(twin.url, await token(), 'POST', '/member/rewards/nope/refund'), status: 401 },
  { route: 'shopperEstimate', call: () => viaProxy(twin.url, 'POST', '/estimate', { body: CART }), status: 200 },
  { route: 'shopperEstimate', call: () => viaProxy(twin.url, 'POST', '/estimate', { customerId: '1001', body: CART }), status: 200 },
  { route: 'shopperEstimate', call: async () => withToken(twin.url, await token('1005'), 'POST', '/estimate', CART), status: 200 },
  { route: 'shopperEstimate', call: () => viaProxy(twin.url, 'POST', '/estimate', { body: { ...CART, lines: [] } }), status: 400 },
  { route: 'shopperEstimate', call: () => viaProxy(twin.url, 'POST', '/estimate', { body: CART, secret: 'wrong' }), status: 401 },
];

describe('shopper answers against the OpenAPI document', () => {
  it('has samples for every shopper route', () => {
    expect(new Set(SAMPLES.map((sample) => sample.route))).toEqual(new Set(SHOPPER_ROUTES.map((route) => route.name)));
  });

  it('matches the documented schema for every sample', async () => {
    const validator = openApiValidator();
    const problems: string[] = [];
    for (const sample of SAMPLES) {
      const route = SHOPPER_ROUTES.find((candidate) => candidate.name === sample.route)!;
      const response = await sample.call();
      if (response.status !== sample.status) problems.push(`${sample.route}: expected ${sample.status}, got ${response.status}`);
      const problem = validator.check(route.path, route.method, response.status, response.body);
      if (problem) problems.push(problem);
    }
    expect(problems).toEqual([]);
  });
});
