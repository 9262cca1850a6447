// Synthesizes the production stack for assertions, without bundling the functions (fast); the real
// bundling synth runs in test/infra/synth.test.ts.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Aspects, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { LoyaltyStack, type LoyaltyStackProps } from '../../infra/cdk/loyalty-stack';
import { acknowledgeNagFindings } from '../../infra/cdk/nag-acknowledgements';

export function synthStack(options: { nag?: boolean; props?: LoyaltyStackProps } = {}): { stack: Stack; template: Template } {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new LoyaltyStack(app, 'Test', { alarmEmail: 'ops@example.com', ...options.props });
  if (options.nag) {
    acknowledgeNagFindings(stack);
    Aspects.of(app).add(new AwsSolutionsChecks());
    Aspects.of(app).add(new ServerlessChecks());
  }
  const template = Template.fromStack(stack);
  return { stack, template };
}

/**
 * Runs the CDK app as the CDK CLI does (context and output directory in the environment, no bundling)
 * and returns the synthesized template's resources: proves a `-c` switch reaches the stack.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- CloudFormation properties are arbitrary JSON
export function synthAppWithContext(context: Record<string, string>): Array<{ Type: string; Properties: Record<string, any> }> {
  const out = mkdtempSync(join(tmpdir(), 'cdk-context-'));
  try {
    execFileSync(process.execPath, ['--import', 'tsx', join(__dirname, '..', '..', 'infra', 'cdk', 'app.ts')], {
      env: { ...process.env, CDK_OUTDIR: out, CDK_CONTEXT_JSON: JSON.stringify({ ...context, 'aws:cdk:bundling-stacks': [] }) },
      stdio: 'pipe',
    });
    return Object.values(JSON.parse(readFileSync(join(out, 'LoyaltyApi.template.json'), 'utf8')).Resources);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
