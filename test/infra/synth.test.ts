// `npm run synth` exactly as a store engineer runs it: the CDK CLI, real esbuild bundling, no AWS
// credentials, no network. Slow (tens of seconds), so it is the only test that bundles.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QUEUE_CONSUMERS, ROUTES, SCHEDULED_JOBS, SHOPPER_ROUTES, WEBHOOKS, ADMIN_PAGES } from '../../shared/runtime/entry-points';

jest.setTimeout(240_000);

const ROOT = join(__dirname, '..', '..');
/** Routes, webhooks, admin pages, queue consumers, scheduled jobs, the authorizer, the authorizer-cache flusher and the event delivery. */
const FUNCTIONS =
  ROUTES.length + WEBHOOKS.length + SHOPPER_ROUTES.length + ADMIN_PAGES.length + QUEUE_CONSUMERS.length + SCHEDULED_JOBS.length + 3;

function directorySize(dir: string): number {
  return readdirSync(dir).reduce((sum, name) => {
    const path = join(dir, name);
    const stat = statSync(path);
    return sum + (stat.isDirectory() ? directorySize(path) : stat.size);
  }, 0);
}

describe('cdk synth', () => {
  const out = mkdtempSync(join(tmpdir(), 'cdk-out-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('synthesizes the stack offline with every function bundled and no cdk-nag error', () => {
    const env = { ...process.env, AWS_ACCESS_KEY_ID: '', AWS_SECRET_ACCESS_KEY: '', AWS_PROFILE: '', CDK_DISABLE_CLI_TELEMETRY: 'true' };

    // As `npm run synth` runs it; stderr (the CLI's own messages) into the same stream, in order.
    const output = execFileSync('sh', ['-c', `npx cdk synth --quiet --no-notices --output ${out} 2>&1`], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
    });

    // It ends saying it succeeded and where the assembly and cdk-nag's reports are (one per rule pack and stack,
    // nested stacks included), not with a CDK notice (cdk.json pins every feature flag to the behaviour the stack is
    // built and tested with) nor with CDK's note that a stack nears CloudFormation's 500 resources.
    const nestedTemplates = readdirSync(out)
      .filter((name) => name.endsWith('.nested.template.json'))
      .sort();
    expect(nestedTemplates.map((name) => name.replace(/^LoyaltyApi(\w+?)[0-9A-F]{8}\.nested\.template\.json$/, '$1'))).toEqual([
      'Monitoring',
      'RouteFunctions',
      'ScheduledJobs',
      'Workers',
    ]);
    const reports = ['LoyaltyApi', ...nestedTemplates.map((name) => name.replace('.nested.template.json', ''))]
      .sort()
      .flatMap((stack) => [`${out}/AwsSolutions-${stack}-NagReport.csv`, `${out}/Serverless-${stack}-NagReport.csv`])
      .sort();
    const lines = output.trim().split('\n');
    expect(lines[lines.length - 1]).toBe(
      `Synthesized LoyaltyApi into ${out} (LoyaltyApi.template.json); cdk-nag reports: ${reports.join(', ')}`,
    );
    expect(output).not.toMatch(/feature flags|approaching allowed maximum/i);

    type Resources = Record<string, { Type: string; Properties: Record<string, unknown> }>;
    const template = JSON.parse(readFileSync(join(out, 'LoyaltyApi.template.json'), 'utf8'));
    const all: Resources = Object.assign(
      {},
      template.Resources,
      ...nestedTemplates.map((name) => JSON.parse(readFileSync(join(out, name), 'utf8')).Resources),
    );
    // The resource budget (test/infra/resource-budget.test.ts holds it for every option): 60 % of 500.
    expect(Object.keys(template.Resources).length).toBeLessThan(300);
    const functions = Object.values(all).filter((r) => r.Type === 'AWS::Lambda::Function');
    expect(functions).toHaveLength(FUNCTIONS);
    // Without -c shopifyEventSourceName there is no partner event bus.
    const buses = Object.values(all).filter((r) => r.Type === 'AWS::Events::EventBus');
    expect(buses.map((bus) => bus.Properties.EventSourceName)).toEqual([undefined]);
    const bundles = readdirSync(out).filter((name) => name.startsWith('asset.'));
    expect(bundles.length).toBeGreaterThanOrEqual(FUNCTIONS);
    for (const bundle of bundles) {
      const files = readdirSync(join(out, bundle));
      expect(files).toEqual(expect.arrayContaining(['index.mjs', 'index.mjs.map']));
      // Default deploy: no X-Ray SDK (detailedTracing off) and no classic zod in any function.
      const code = readFileSync(join(out, bundle, 'index.mjs'), 'utf8');
      expect({ bundle, xray: code.includes('AWSXRay') }).toEqual({ bundle, xray: false });
      expect({ bundle, classicZod: code.includes('"ZodString"') }).toEqual({ bundle, classicZod: false }); // zod/mini's is "ZodMiniString"
      // A bundle that grows past this has picked up dead weight worth a look.
      expect(directorySize(join(out, bundle))).toBeLessThan(8 * 1024 * 1024);
    }
  });
});
