// `loyalty shopify-app-config` in process: the file alone on stdout, notes and errors on stderr, the
// webhook URL from the command line or from a stack's outputs (CloudFormation mocked).
import { CloudFormationClient, DescribeStacksCommand, type Output } from '@aws-sdk/client-cloudformation';
import { mockClient } from 'aws-sdk-client-mock';
import { parse } from 'smol-toml';
import { main } from '../../infra/cli/main';
import { readShopifyWebhookUrl, TargetError } from '../../infra/cli/targets';
import { shopifyAppToml } from '../../infra/cli/shopify-app-config';

const cloudFormation = mockClient(CloudFormationClient);
const WEBHOOK_URL = 'https://abc123.execute-api.eu-west-1.amazonaws.com/prod/webhooks/shopify';
const CLIENT_ID = '0123456789abcdef0123456789abcdef';

beforeEach(() => cloudFormation.reset());
afterAll(() => cloudFormation.restore());

function stackWith(outputs: Output[]) {
  return { Stacks: [{ StackName: 'LoyaltyApi', CreationTime: new Date(), StackStatus: 'CREATE_COMPLETE' as const, Outputs: outputs }] };
}

async function runMain(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (line) => void out.push(line), err: (line) => void err.push(line) });
  // console.log ends each printed line with a newline, as the process writes it.
  return { code, stdout: out.map((line) => `${line}\n`).join(''), stderr: err.join('\n') };
}

const uris = (stdout: string) =>
  (parse(stdout) as { webhooks: { subscriptions: Array<{ uri: string }> } }).webhooks.subscriptions.map((entry) => entry.uri);

describe('loyalty shopify-app-config --webhook-url', () => {
  it('prints exactly the file on stdout and nothing on stderr when given a Client ID', async () => {
    const result = await runMain('shopify-app-config', '--webhook-url', WEBHOOK_URL, '--client-id', CLIENT_ID, '--app-name', 'Points Club');

    expect(result).toEqual({
      code: 0,
      stdout: shopifyAppToml({ webhookUrl: WEBHOOK_URL, clientId: CLIENT_ID, appName: 'Points Club' }),
      stderr: '',
    });
    expect(parse(result.stdout)).toMatchObject({ client_id: CLIENT_ID, name: 'Points Club' });
  });

  it('says on stderr, not in the file, that client_id was left empty', async () => {
    const result = await runMain('shopify-app-config', '--webhook-url', WEBHOOK_URL);

    expect(result.code).toBe(0);
    expect(result.stdout).toBe(shopifyAppToml({ webhookUrl: WEBHOOK_URL }));
    expect(result.stderr).toMatch(/client_id is left empty: pass --client-id/);
  });

  it.each([
    [[], 'say where Shopify delivers webhooks'],
    [['--webhook-url', WEBHOOK_URL, '--stack', 'LoyaltyApi'], 'say where Shopify delivers webhooks'],
    [['--webhook-url', WEBHOOK_URL, '--region', 'eu-west-1'], '--region goes with --stack'],
    [['--webhook-url', WEBHOOK_URL, '--endpoint', 'http://127.0.0.1:8000'], "--endpoint does not apply to 'shopify-app-config'"],
    [['--stack', 'LoyaltyApi', '--table', 't'], "--table does not apply to 'shopify-app-config'"],
    [['--webhook-url', WEBHOOK_URL, '--shop', 'demo'], "--shop does not apply to 'shopify-app-config'"],
    [['extra', '--webhook-url', WEBHOOK_URL], "unexpected argument 'extra'"],
    [['--webhook-url', 'http://127.0.0.1:3000/webhooks/shopify'], 'Shopify delivers webhooks over HTTPS only'],
    [['--webhook-url', 'not a url'], '--webhook-url must be an absolute https URL'],
    [['--webhook-url', WEBHOOK_URL, '--client-id', ''], '--client-id must not be empty'],
    [['--webhook-url', WEBHOOK_URL, '--client-id', 'shpss_abcdef'], 'looks like a secret'],
    [['--webhook-url', WEBHOOK_URL, '--app-name', 'A name far longer than thirty characters'], 'at most 30 characters'],
    [['--webhook-url'], "Option '--webhook-url <value>' argument missing"],
  ])('%j: exit 1 with the problem and the usage on stderr, nothing on stdout', async (args, message) => {
    const result = await runMain('shopify-app-config', ...args);

    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('Usage:');
    expect(result.stdout).toBe('');
    expect(cloudFormation.calls()).toHaveLength(0);
  });

  it('lists the command in the usage text', async () => {
    const result = await runMain('--help');

    expect(result.stdout).toContain(
      'loyalty shopify-app-config (--stack NAME [--region R] | --webhook-url URL) [--client-id ID] [--app-name NAME]',
    );
  });
});

describe('loyalty shopify-app-config --stack', () => {
  it("subscribes the stack's ShopifyWebhookUrl output, read in the region given", async () => {
    cloudFormation.on(DescribeStacksCommand, { StackName: 'LoyaltyApi' }).resolves(
      stackWith([
        { OutputKey: 'ApiUrl', OutputValue: 'https://abc123.execute-api.eu-west-1.amazonaws.com/prod/' },
        { OutputKey: 'ShopifyWebhookUrl', OutputValue: WEBHOOK_URL },
        { OutputKey: 'WebhookUrls', OutputValue: 'POST https://elsewhere.example/prod/webhooks/shopify' },
      ]),
    );

    const result = await runMain('shopify-app-config', '--stack', 'LoyaltyApi', '--region', 'eu-west-1', '--client-id', CLIENT_ID);

    expect(result.code).toBe(0);
    expect(result.stdout).toBe(shopifyAppToml({ webhookUrl: WEBHOOK_URL, clientId: CLIENT_ID }));
    expect(uris(result.stdout)).toEqual([WEBHOOK_URL, WEBHOOK_URL]);
    expect(result.stderr).toBe(`webhook URL of stack LoyaltyApi (eu-west-1): ${WEBHOOK_URL}`);
    const calls = cloudFormation.commandCalls(DescribeStacksCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toEqual({ StackName: 'LoyaltyApi' });
    expect(await calls[0]!.thisValue.config.region()).toBe('eu-west-1');
  });

  it('falls back to the Shopify entry of WebhookUrls for a stack deployed before ShopifyWebhookUrl', async () => {
    cloudFormation
      .on(DescribeStacksCommand)
      .resolves(
        stackWith([{ OutputKey: 'WebhookUrls', OutputValue: `POST https://abc123.example/prod/webhooks/other, POST ${WEBHOOK_URL}` }]),
      );

    const result = await runMain('shopify-app-config', '--stack', 'LoyaltyApi', '--region', 'eu-west-1');

    expect(result.code).toBe(0);
    expect(uris(result.stdout)).toEqual([WEBHOOK_URL, WEBHOOK_URL]);
  });

  it('exits 1 naming the missing output, with nothing on stdout', async () => {
    cloudFormation.on(DescribeStacksCommand).resolves(stackWith([{ OutputKey: 'TableName', OutputValue: 'loyalty-table' }]));

    const result = await runMain('shopify-app-config', '--stack', 'LoyaltyApi', '--region', 'eu-west-1');

    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain("Stack 'LoyaltyApi' has no output 'ShopifyWebhookUrl'");
  });

  it('exits 1 saying the stack is not found in the region', async () => {
    cloudFormation
      .on(DescribeStacksCommand)
      .rejects(Object.assign(new Error('Stack with id Nope does not exist'), { name: 'ValidationError' }));

    const result = await runMain('shopify-app-config', '--stack', 'Nope', '--region', 'eu-west-1');

    expect(result).toEqual({ code: 1, stdout: '', stderr: "Stack 'Nope' not found in region eu-west-1" });
  });

  it('reads the URL through the same client the operator commands use', async () => {
    cloudFormation
      .on(DescribeStacksCommand)
      .resolves(stackWith([{ OutputKey: 'WebhookUrls', OutputValue: 'POST https://x.example/other' }]));
    const client = new CloudFormationClient({ region: 'eu-west-1' });

    await expect(readShopifyWebhookUrl('LoyaltyApi', client)).rejects.toThrow(TargetError);
  });
});
