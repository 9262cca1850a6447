// What an anonymous caller costs: through the twin's gateway and the real authorizer, a value that
// cannot be a key is refused without a DynamoDB call, a well-formed unknown one with exactly one read.
import { twinDynamoDbStats } from '../../bench/twin-control';
import { DEMO_CONFIG, type Twin } from '../../infra/local/twin';
import { DETAILS } from '../../shared/http/errors';
import { apiClient, expectError, startTestTwin } from '../support/twin';

let twin: Twin;

beforeAll(async () => {
  twin = await startTestTwin(DEMO_CONFIG, { throttling: false, environment: { DYNAMODB_STATS: 'true' } });
});
afterAll(async () => {
  await twin?.stop();
});

async function refusalOf(key: string) {
  await twinDynamoDbStats(twin.url, 'reset');
  const response = await apiClient(twin.url, key).get('/v1/customers/1001');
  const { calls } = await twinDynamoDbStats(twin.url, 'pause');
  return { response, calls };
}

describe('a refused key costs', () => {
  it.each([
    ['too short', 'abc'],
    ['a Bearer prefix', 'Bearer demo_read_key'],
    ['outside the alphabet', 'demo.read.key!'],
    ['4 kB long', 'k'.repeat(4096)],
  ])('no DynamoDB call when it is %s', async (_, key) => {
    const { response, calls } = await refusalOf(key);

    expectError(response, 401, DETAILS.invalidKey);
    expect(calls).toEqual({});
  });

  it('one GetItem when it is well formed but unknown', async () => {
    const { response, calls } = await refusalOf(`lk_${'A'.repeat(43)}`);

    expectError(response, 401, DETAILS.invalidKey);
    expect(calls).toEqual({ GetItemCommand: 1 });
  });

  it('one GetItem when it is a revoked key (refused only after the read)', async () => {
    const { response, calls } = await refusalOf('demo_revoked_key');

    expectError(response, 401, DETAILS.invalidKey);
    expect(calls).toEqual({ GetItemCommand: 1 });
  });
});
