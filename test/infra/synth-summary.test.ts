// The line a synthesis ends with: it succeeded, into which directory, and where cdk-nag's reports are.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Annotations, App, CfnResource, Stack } from 'aws-cdk-lib';
import { synthSummary } from '../../infra/cdk/synth-summary';

describe('synthSummary', () => {
  let outdir: string;
  beforeEach(() => {
    outdir = mkdtempSync(join(tmpdir(), 'synth-summary-'));
  });
  afterEach(() => rmSync(outdir, { recursive: true, force: true }));

  function app(withError = false) {
    const cdkApp = new App({ outdir });
    const stack = new Stack(cdkApp, 'LoyaltyApi');
    new CfnResource(stack, 'Topic', { type: 'AWS::SNS::Topic' });
    if (withError) Annotations.of(stack).addError('AwsSolutions-IAM4: a finding');
    writeFileSync(join(outdir, 'Serverless-LoyaltyApi-NagReport.csv'), 'Rule ID\n');
    writeFileSync(join(outdir, 'AwsSolutions-LoyaltyApi-NagReport.csv'), 'Rule ID\n');
    return cdkApp;
  }

  it('names the stack, the directory as typed from the project and each cdk-nag report', () => {
    // Act
    const line = synthSummary(app().synth(), join(outdir, '..'));

    // Assert
    const dir = outdir.split('/').pop()!;
    expect(line).toBe(
      `Synthesized LoyaltyApi into ${dir} (LoyaltyApi.template.json); cdk-nag reports: ` +
        `${dir}/AwsSolutions-LoyaltyApi-NagReport.csv, ${dir}/Serverless-LoyaltyApi-NagReport.csv`,
    );
  });

  it('gives absolute paths outside the working directory', () => {
    expect(synthSummary(app().synth(), '/nonexistent-project')).toContain(`into ${outdir} (`);
  });

  it('says nothing when a stack carries an error, which the CDK CLI reports and fails on', () => {
    expect(synthSummary(app(true).synth())).toBeNull();
  });
});
