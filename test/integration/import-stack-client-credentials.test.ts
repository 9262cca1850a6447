// `loyalty import --stack` for a shop whose Shopify secret is a Dev Dashboard app's
// ({ shop_domain, client_id, client_secret }, no token): the CLI reads the secret named by the stack's
// ShopifySecretPrefix output, asks https://{shop_domain}/admin/oauth/access_token for a token with the
// client credentials grant and sends that token on every Admin API call; matching by id and by e-mail,
// dry run, import and undo. CloudFormation and Secrets Manager are mocked (aws-sdk-client-mock); the
// stack's table is DynamoDB Local, and https://cc.myshopify.com is the platform simulator, with its
// real rule: only tokens it granted for the pair are taken.
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../infra/cli/main';
import { startPlatformSimulator, type PlatformSimulator } from '../../infra/local/simulator/platform-simulator';
import { parseConfig } from '../../shared/config/schema';
import { setRawClientHook } from '../../shared/data/client';
import { getCustomer } from '../../shared/data/customer-repository';
import { resetPlatforms } from '../../shared/platform/platform-for-shop';
import { applyConfig } from '../../shared/shops/apply-config';
import { useEnvironment } from '../support/environment';
import { createTestTable, testEndpoint } from '../support/test-table';

jest.setTimeout(60_000);

const SHOP = 'cc';
const SECRET = { shop_domain: 'cc.myshopify.com', client_id: 'cc-app-client-id', client_secret: 'cc-app-client-secret' };
const SECRET_PREFIX = 'loyalty/shopify/';
const tmp = mkdtempSync(join(tmpdir(), 'import-stack-cc-'));
const NATIVE = join(tmp, 'native.csv');
writeFileSync(NATIVE, ['Customer ID,Email,Points', '5101,a@cc.test,250', ',B@cc.test,40'].join('\n'));

const cloudFormation = mockClient(CloudFormationClient);
const secretsManager = mockClient(SecretsManagerClient);

// The operator's AWS credentials (the stack's table is not DynamoDB Local's loopback endpoint to the CLI).
useEnvironment({ AWS_ACCESS_KEY_ID: 'operator', AWS_SECRET_ACCESS_KEY: 'operator-secret', PLATFORM_BASE_URL: undefined });

interface SentRequest {
  url: string;
  token: string | null;
  form: Record<string, string> | null;
}

let table: Awaited<ReturnType<typeof createTestTable>>;
let simulator: PlatformSimulator;
let sent: SentRequest[] = [];
const granted: string[] = [];
const realFetch = globalThis.fetch;

beforeAll(async () => {
  table = await createTestTable();
  await applyConfig(
    parseConfig({
      shops: [
        {
          id: SHOP,
          name: 'Client credentials shop',
          currency: 'USD',
          referral_base_url: 'https://cc.example/',
          platform: { shop_domain: SECRET.shop_domain },
        },
      ],
    }),
  );
  simulator = await startPlatformSimulator({
    port: 0,
    shops: {
      [SHOP]: {
        shop_domain: SECRET.shop_domain,
        client_id: SECRET.client_id,
        client_secret: SECRET.client_secret,
        customers: [
          { id: '5101', email: 'a@cc.test', first_name: 'Ada', last_name: '', created_at: null },
          { id: '5102', email: 'b@cc.test', first_name: 'Bo', last_name: '', created_at: null },
        ],
      },
    },
  });
  // The stack's table, in AWS for the CLI, is DynamoDB Local here: each request is sent there once built.
  const local = new URL(testEndpoint());
  setRawClientHook((raw: DynamoDBClient) => {
    raw.middlewareStack.add(
      (next) => async (args) => {
        const request = args.request as { protocol: string; hostname: string; port?: number; headers: Record<string, string> };
        request.protocol = local.protocol;
        request.hostname = local.hostname;
        request.port = Number(local.port);
        request.headers.host = local.host;
        return next(args);
      },
      { step: 'build', name: 'stackTableIsDynamoDbLocal' },
    );
  });
  // https://cc.myshopify.com is the simulator's shop; every request the CLI sends there is recorded.
  jest.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    const prefix = `https://${SECRET.shop_domain}/`;
    if (!url.startsWith(prefix)) return realFetch(input, init);
    const headers = new Headers(init?.headers);
    const isGrant = url.endsWith('/admin/oauth/access_token');
    sent.push({
      url,
      token: headers.get('X-Shopify-Access-Token'),
      form: isGrant ? Object.fromEntries(new URLSearchParams(String(init?.body))) : null,
    });
    const response = await realFetch(`${simulator.url}/${SHOP}/${url.slice(prefix.length)}`, init);
    if (!isGrant) return response;
    const body = (await response.json()) as { access_token?: string };
    if (body.access_token) granted.push(body.access_token);
    return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
  });
});
afterAll(async () => {
  jest.restoreAllMocks();
  setRawClientHook(undefined);
  await simulator?.stop();
  await table?.drop();
});
beforeEach(() => {
  sent = [];
  resetPlatforms();
  cloudFormation.reset();
  secretsManager.reset();
  cloudFormation.on(DescribeStacksCommand, { StackName: 'LoyaltyApi' }).resolves({
    Stacks: [
      {
        StackName: 'LoyaltyApi',
        CreationTime: new Date(),
        StackStatus: 'CREATE_COMPLETE',
        Outputs: [
          { OutputKey: 'TableName', OutputValue: table.tableName },
          { OutputKey: 'UsagePlanId', OutputValue: 'plan-1' },
          { OutputKey: 'ShopifySecretPrefix', OutputValue: SECRET_PREFIX },
        ],
      },
    ],
  });
  secretsManager.on(GetSecretValueCommand, { SecretId: `${SECRET_PREFIX}${SHOP}` }).resolves({ SecretString: JSON.stringify(SECRET) });
});

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main([...args, '--stack', 'LoyaltyApi', '--region', 'eu-west-1'], {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** The client credentials grant went first, with the secret's pair, and every Admin API call carried a token it granted. */
function expectGrantedTokensSent(): void {
  const grants = sent.filter((request) => request.form !== null);
  const calls = sent.filter((request) => request.form === null);
  expect(grants.map((request) => request.url)).toEqual([`https://${SECRET.shop_domain}/admin/oauth/access_token`]);
  expect(grants[0]!.form).toEqual({ grant_type: 'client_credentials', client_id: SECRET.client_id, client_secret: SECRET.client_secret });
  expect(calls.length).toBeGreaterThanOrEqual(2);
  for (const call of calls) {
    expect(call.url).toBe(`https://${SECRET.shop_domain}/admin/api/2026-10/graphql.json`);
    expect(granted).toContain(call.token);
  }
  expect(secretsManager.commandCalls(GetSecretValueCommand).map((call) => call.args[0].input.SecretId)).toEqual([
    `${SECRET_PREFIX}${SHOP}`,
  ]);
}

describe("loyalty import against a stack whose shop's secret holds client credentials", () => {
  let importId = '';

  it('matches by id and by e-mail through Shopify on a dry run, with a token from the grant', async () => {
    const run = await cli('import', NATIVE, '--shop', SHOP, '--from', 'native', '--dry-run');

    expect({ code: run.code, err: run.err }).toEqual({ code: 0, err: expect.not.stringContaining('refused') });
    expect(run.out).toContain(`target: stack LoyaltyApi (eu-west-1), table ${table.tableName}`);
    expect(run.out).toMatch(/matched by id: +1/);
    expect(run.out).toMatch(/matched by e-mail: +1/);
    expect(run.out).toMatch(/members would be created: +2/);
    expectGrantedTokensSent();
    expect(await getCustomer(SHOP, '5101', true)).toBeNull();
  });

  it('imports both members', async () => {
    const run = await cli('import', NATIVE, '--shop', SHOP, '--from', 'native');

    expect(run.code).toBe(0);
    expect(run.out).toMatch(/members created: +2/);
    importId = /Import id: ([0-9a-f]{16})/.exec(run.out)![1]!;
    expectGrantedTokensSent();
    expect((await getCustomer(SHOP, '5102', true))?.record).toMatchObject({ current_points: 40, email: 'b@cc.test', first_name: 'Bo' });
  });

  it('undoes the import without speaking to Shopify', async () => {
    const undo = await cli('import', 'undo', importId, '--shop', SHOP);

    expect(undo.code).toBe(0);
    expect(undo.out).toMatch(/members removed \(created by the import\): +2/);
    expect(sent).toEqual([]);
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toEqual([]);
    expect(await getCustomer(SHOP, '5102', true)).toBeNull();
  });

  it('backfills the e-mail index without reading the secret or calling Shopify (the only other command on members)', async () => {
    const run = await cli('email-index', 'backfill', '--shop', SHOP);

    expect(run.code).toBe(0);
    expect(run.out).toMatch(/shop cc: .*e-mail index (already )?complete/);
    expect(sent).toEqual([]);
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toEqual([]);
  });

  it('says the credentials were refused, naming the shop and the secret, when the client secret is wrong', async () => {
    secretsManager
      .on(GetSecretValueCommand, { SecretId: `${SECRET_PREFIX}${SHOP}` })
      .resolves({ SecretString: JSON.stringify({ ...SECRET, client_secret: 'rotated-away' }) });

    const run = await cli('import', NATIVE, '--shop', SHOP, '--from', 'native', '--dry-run');

    expect(run.code).toBe(1);
    expect(run.err).toContain(`Shopify refused the client credentials of shop '${SHOP}' (invalid_client)`);
    expect(run.err).not.toContain('rotated-away');
    expect(sent.filter((request) => request.form === null)).toEqual([]);
  });
});
