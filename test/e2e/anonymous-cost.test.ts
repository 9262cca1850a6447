// What an anonymous caller costs: through the twin's gateway and the real authorizer, a value that
// cannot be a key is refused without a DynamoDB call, a well-formed unknown one with exactly one read;
// at the webhook receiver, what cannot be a Shopify delivery (size, headers) is refused before any read.
import { twinDynamoDbStats } from '../../bench/twin-control';
import { DEMO_CONFIG, type Twin } from '../../infra/local/twin';
import { DETAILS } from '../../shared/http/errors';
import { postWebhook, signedHeaders } from '../support/orders';
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
    ['too short', 'abc', DETAILS.invalidKey],
    ['a Bearer prefix', 'Bearer demo_read_key', DETAILS.bearerPrefix],
    ['outside the alphabet', 'demo.read.key!', DETAILS.invalidKey],
    ['4 kB long', 'k'.repeat(4096), DETAILS.invalidKey],
  ])('no DynamoDB call when it is %s', async (_, key, detail) => {
    const { response, calls } = await refusalOf(key);

    expectError(response, 401, detail);
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

describe('a refused webhook delivery costs', () => {
  const body = JSON.stringify({ id: 1, customer: { id: 1001 }, subtotal_price: '10.00' });
  const signed = signedHeaders(body, 'demo-webhook-secret', 'demo.myshopify.com', 'orders/paid');
  const { 'X-Shopify-Hmac-Sha256': _hmac, ...unsigned } = signed;

  async function refusalOf(payload: string, headers: Record<string, string>) {
    await twinDynamoDbStats(twin.url, 'reset');
    const response = await postWebhook(twin, payload, headers);
    const { calls } = await twinDynamoDbStats(twin.url, 'pause');
    return { response, calls };
  }

  it.each([
    ['an empty body', '', signed],
    ['a body over 1 MiB', `{"pad":"${'x'.repeat(1024 * 1024)}"}`, signed],
    ['no signature header', body, unsigned],
    ['no shop domain header', body, { ...signed, 'X-Shopify-Shop-Domain': '' }],
    ['a signature that is not a base64 SHA-256', body, { ...signed, 'X-Shopify-Hmac-Sha256': 'not-a-signature' }],
    ['a hex signature', body, { ...signed, 'X-Shopify-Hmac-Sha256': 'ab'.repeat(32) }],
  ])('no DynamoDB call for %s', async (_, payload, headers) => {
    const { response, calls } = await refusalOf(payload, headers);

    expect(response.status).toBe(401);
    expect(calls).toEqual({});
  });

  it('one read (the shop by domain) for a well-formed forgery from an unknown shop', async () => {
    const { response, calls } = await refusalOf(body, { ...signed, 'X-Shopify-Shop-Domain': 'nobody.myshopify.com' });

    expect(response.status).toBe(401);
    expect(calls).toEqual({ GetItemCommand: 1 });
  });
});
