// Every shell command in the README (and docs/*.md) is run by a test or by .ci/run, or is listed
// here as deploy-only with its reason, so none can silently break. The curl walk-through and the
// "existing DynamoDB" pair run here as written, only with free ports for 3000, 3001 and 8000.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { localClient } from '../../infra/local/dynamodb-local';
import { DEMO_CONFIG, startTwin, type Twin } from '../../infra/local/twin';
import { streamEndpoint } from '../support/stream-dynamodb';
import { uniqueTableName } from '../support/test-table';
import { answers, eventually, freePortRun, javaProcessesWith, killGroup, ROOT, runNpm, type NpmProcess } from '../support/twin-process';

jest.setTimeout(120_000);

interface DocCommand {
  file: string;
  command: string;
  /** The status a trailing `# 401` comment promises, if any. */
  status?: number;
}

/** The commands of every ```sh block: continuation lines joined, comments dropped. */
function documentedCommands(): DocCommand[] {
  const files = [
    'README.md',
    ...(existsSync(join(ROOT, 'docs'))
      ? readdirSync(join(ROOT, 'docs'))
          .filter((f) => f.endsWith('.md'))
          .map((f) => `docs/${f}`)
      : []),
  ];
  const commands: DocCommand[] = [];
  for (const file of files) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const block of text.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```/gm)) {
      const lines = block[1]!.split('\n');
      for (let i = 0; i < lines.length; i += 1) {
        let line = lines[i]!;
        while (line.trimEnd().endsWith('\\') && i + 1 < lines.length) line = `${line.trimEnd().slice(0, -1)} ${lines[++i]!.trim()}`;
        // A comment starts at a '#' preceded by whitespace (URLs and quoted text hold none here).
        const comment = /\s#\s?(.*)$/.exec(line);
        const command = (comment ? line.slice(0, comment.index) : line).replace(/\s+/g, ' ').trim();
        if (command === '' || command.startsWith('#')) continue;
        const status = comment ? /^(\d{3})\b/.exec(comment[1]!)?.[1] : undefined;
        commands.push({ file, command, ...(status ? { status: Number(status) } : {}) });
      }
    }
  }
  return commands;
}

/** Run by the CI entry point, line for line. */
const CI_COMMANDS = readFileSync(join(ROOT, '.ci', 'run'), 'utf8')
  .split('\n')
  .map((line) => line.trim());

/** Run by another test file, which must hold the marker (how it runs the command). */
const RUN_ELSEWHERE: Record<string, { test: string; marker: string }> = {
  'npm start': { test: 'test/e2e/twin-process.test.ts', marker: "runNpm(['start'" },
  // A shop with client credentials, which the demo configuration has not: run against a twin that has one.
  'curl -s -X POST http://127.0.0.1:4001/my-shop/admin/oauth/access_token -d grant_type=client_credentials -d client_id=my-app-client-id -d client_secret=my-app-client-secret':
    { test: 'test/e2e/twin-app-credentials.test.ts', marker: 'documented.commands.map(' },
  'curl -s -X PUT http://127.0.0.1:4001/_faults -d \'{"token_lifetime_seconds":60}\'': {
    test: 'test/e2e/twin-app-credentials.test.ts',
    marker: 'documented.commands.map(',
  },
  'curl -s -X DELETE http://127.0.0.1:4001/_oauth/tokens': {
    test: 'test/e2e/twin-app-credentials.test.ts',
    marker: 'documented.commands.map(',
  },
};

const DEPLOY_ONLY: Record<string, string> = {
  'npx cdk bootstrap': 'needs an AWS account (bootstraps CDK in it); the synthesized stack is tested by test/infra',
  'npx cdk deploy -c alarmEmail=ops@your-store.com': 'needs an AWS account; `cdk synth` of the same app runs in test/infra/synth.test.ts',
  'aws secretsmanager create-secret --name loyalty/shopify/my-shop --secret-string \'{"shop_domain":"my-shop.myshopify.com","client_id":"...","client_secret":"..."}\'':
    "needs an AWS account and a Shopify shop; the secret's fields are read in test/unit/platform-secrets.test.ts and test/unit/webhook-secrets.test.ts",
  'npx loyalty shopify-app-config --stack LoyaltyApi --client-id <Client ID> > infra/shopify-app/shopify.app.toml':
    'needs a deployed stack; the command runs with a mocked stack and with --webhook-url in test/unit/shopify-app-config-cli.test.ts, and its file is parsed and checked field by field in test/unit/shopify-app-config.test.ts',
  'npm run account-extension -- --stack LoyaltyApi':
    "needs a deployed stack (its ApiUrl output); the output's reading, the file it writes and the bundles it measures are tested in test/unit/account-extension-bundle.test.ts",
  'shopify app deploy':
    "needs Shopify's CLI (Node 22.12+) and a Shopify account; the file it deploys is held to the rules of Shopify's configuration schema in test/unit/shopify-app-config.test.ts",
  'aws sqs receive-message --queue-url <OrderEventDeadLetterQueueUrl> --max-number-of-messages 10 --visibility-timeout 30':
    'needs a deployed stack; the queues and their redrive policy are asserted in test/infra/stack.test.ts',
  'aws sqs start-message-move-task --source-arn <dead-letter queue ARN>':
    'needs a deployed stack; redriven messages apply once (test/e2e/orders.test.ts, duplicate deliveries)',
  'aws sqs start-message-move-task --source-arn <UndeliveredEvents ARN> --destination-arn <webhook delivery queue ARN>':
    "needs a deployed stack; the processor reads the partner source's events (test/e2e/orders-eventbridge.test.ts)",
  'npx loyalty stats verify --shop demo --stack LoyaltyApi':
    'needs a deployed stack; the same command with --endpoint runs in test/e2e/program-figures.test.ts',
  'npx loyalty member-list backfill --stack LoyaltyApi':
    'needs a deployed stack; the backfill runs against DynamoDB Local in test/e2e/admin-members.test.ts and test/integration/deploy-permissions.test.ts',
  'npx loyalty name-index backfill --stack LoyaltyApi':
    'needs a deployed stack; the backfill runs against DynamoDB Local in test/integration/name-search.test.ts and test/integration/deploy-permissions.test.ts',
  'npx loyalty stats backfill --shop demo --stack LoyaltyApi':
    'needs a deployed stack; the backfill with --endpoint runs in test/e2e/program-figures.test.ts',
  'npx loyalty config apply my-shop.json --stack LoyaltyApi':
    'needs a deployed stack; the same command with --endpoint runs in test/integration/operator-cli.test.ts',
  'npx loyalty keys create --shop my-shop --name backend --scope full --stack LoyaltyApi':
    'needs a deployed stack; keys create with --endpoint runs in test/integration/operator-cli.test.ts',
  'npx loyalty import smile.csv --shop my-shop --from smile --dry-run --stack LoyaltyApi':
    "needs a deployed stack and a store; the import with --stack, the shop's secret holding client credentials, runs in test/integration/import-stack-client-credentials.test.ts",
  'npx loyalty import smile.csv --shop my-shop --from smile --stack LoyaltyApi':
    "needs a deployed stack and a store; the import with --stack, the shop's secret holding client credentials, runs in test/integration/import-stack-client-credentials.test.ts",
  'curl -s "$API_URL/v1/customers?page%5Bsize%5D=1" -H "Authorization: $KEY"':
    'needs a deployed stack; the same request runs against the twin in the walk-through',
  'curl -s "$API_URL/v1/vip-tiers" -H "Authorization: $KEY"':
    'needs a deployed stack; the same request runs against the twin in the walk-through',
};

const isWalkThrough = (command: string) => /^curl .*http:\/\/127\.0\.0\.1:300[01]\//.test(command);
const EXISTING_DYNAMODB = ['npm run dynamodb -- --port 8000 &', 'npm start -- --dynamodb-endpoint http://127.0.0.1:8000'];

function sh(command: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('sh', ['-c', command], { cwd: ROOT }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('the documentation’s shell commands', () => {
  const commands = documentedCommands();

  it('are each run by a test or by .ci/run, or listed as deploy-only with a reason', () => {
    const uncovered = commands.filter(
      ({ command }) =>
        !isWalkThrough(command) &&
        !EXISTING_DYNAMODB.includes(command) &&
        !CI_COMMANDS.includes(command) &&
        !(command in RUN_ELSEWHERE) &&
        !(command in DEPLOY_ONLY),
    );

    expect(uncovered).toEqual([]);
    expect(commands.filter(({ command }) => isWalkThrough(command)).length).toBeGreaterThan(15);
  });

  it('leave no stale entry in the lists above, and each test named holds its marker', () => {
    const documented = new Set(commands.map(({ command }) => command));

    expect(
      [...Object.keys(RUN_ELSEWHERE), ...Object.keys(DEPLOY_ONLY), ...EXISTING_DYNAMODB].filter((command) => !documented.has(command)),
    ).toEqual([]);
    for (const { test, marker } of Object.values(RUN_ELSEWHERE)) expect(readFileSync(join(ROOT, test), 'utf8')).toContain(marker);
  });

  describe('the curl walk-through, against a twin on the demo configuration', () => {
    let twin: Twin;
    beforeAll(async () => {
      twin = await startTwin({
        config: DEMO_CONFIG,
        port: 0,
        dynamodbEndpoint: await streamEndpoint(),
        tableName: uniqueTableName('readme'),
      });
    });
    afterAll(async () => {
      await twin?.stop();
    });

    it('answers every command as the comments say, in order', async () => {
      const results = [];
      for (const { command, status } of commands.filter(({ command }) => isWalkThrough(command))) {
        const run = await sh(command.replaceAll('http://127.0.0.1:3000', twin.url).replaceAll('http://127.0.0.1:3001', twin.platformUrl));
        const body = JSON.parse(run.stdout) as { errors?: Array<{ status: string }> };
        results.push({ command, exit: run.code, status: body.errors?.[0]?.status ?? 'ok' });
        expect({ command, exit: run.code, status: body.errors?.[0]?.status ?? 'ok' }).toEqual({
          command,
          exit: 0,
          status: status ? String(status) : 'ok',
        });
      }
      expect(results.length).toBeGreaterThan(15);
    });
  });

  it('npm run bench:invariants runs only the three files it names', async () => {
    const listed = await sh('npm run --silent bench:invariants -- --listTests');

    expect(listed.code).toBe(0);
    expect(
      listed.stdout
        .split('\n')
        .filter((line) => line.endsWith('.test.ts'))
        .map((line) => line.slice(ROOT.length + 1))
        .sort(),
    ).toEqual(['test/e2e/hostile-input.test.ts', 'test/e2e/invariants-under-db-faults.test.ts', 'test/e2e/invariants-under-load.test.ts']);
  });

  it('npm run dynamodb -- --port N starts DynamoDB Local in the foreground, the twin uses it, and SIGINT stops it', async () => {
    const [port, apiPort] = [await freePortRun(1), await freePortRun(3)];
    const [dynamodbCommand, twinCommand] = EXISTING_DYNAMODB.map((command) => command.replace(' &', '').replace('8000', String(port)));
    const processes: NpmProcess[] = [];
    try {
      const dynamodb = runNpm(dynamodbCommand!.split(' ').slice(1));
      processes.push(dynamodb);
      await dynamodb.waitFor('Press Ctrl-C');
      const client = localClient(`http://127.0.0.1:${port}`);
      const tables = await client.send(new ListTablesCommand({}));
      client.destroy();
      const twin = runNpm([...twinCommand!.split(' ').slice(1), '--port', String(apiPort)]);
      processes.push(twin);
      const banner = await twin.waitFor('Press Ctrl-C');
      process.kill(twin.pid, 'SIGTERM');
      const twinExit = await twin.exited;

      process.kill(dynamodb.pid, 'SIGINT');

      expect(dynamodb.output()).toContain(`DynamoDB Local listening on http://127.0.0.1:${port} (in memory)`);
      expect(tables.TableNames).toEqual([]);
      expect(banner).toContain(`DynamoDB: http://127.0.0.1:${port}, table loyalty-local`);
      expect(twinExit).toBe(0);
      expect(await dynamodb.exited).toBe(0);
      expect(
        await eventually(
          () => answers(port),
          (open) => !open,
        ),
      ).toBe(false);
      expect(
        await eventually(
          () => javaProcessesWith([String(port)]),
          (java) => java.length === 0,
        ),
      ).toEqual([]);
    } finally {
      for (const npm of processes) killGroup(npm.pid);
    }
  });
});
