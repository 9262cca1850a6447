// cdk-nag's AwsSolutions and ServerlessChecks packs over the whole stack, with and without the Shopify
// partner event source and the WAF web ACL: every finding is fixed or acknowledged with a reason in
// infra/cdk/nag-acknowledgements.ts.
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { synthStack } from '../support/synth-stack';

const PARTNER_SOURCE = 'aws.partner/shopify.com/123456/loyalty';

describe('cdk-nag AwsSolutions and ServerlessChecks', () => {
  it.each([
    ['the default stack', {}],
    ['the stack with the Shopify partner event source', { shopifyEventSourceName: PARTNER_SOURCE }],
    ['the stack with the WAF web ACL', { waf: true }],
  ])('leave no unacknowledged finding on %s', (_, props) => {
    const { stack } = synthStack({ nag: true, props });
    // The main stack's assembly carries its nested stacks' findings too (the functions and the alarms live there).
    const annotations = Annotations.fromStack(stack);

    const pattern = Match.stringLikeRegexp('(AwsSolutions|Serverless|CdkNagValidationFailure)');
    const findings = [...annotations.findError('*', pattern), ...annotations.findWarning('*', pattern)].map(
      (finding) => `${finding.id}: ${String(finding.entry.data).split('\n')[0]}`,
    );

    expect(findings).toEqual([]);
  });

  it('needs the APIG3 acknowledgement only without the web ACL (with it, the stage is associated)', () => {
    const reasonsOf = (props: { waf?: boolean }) => JSON.stringify(synthStack({ nag: true, props }).template.toJSON().Metadata);

    expect(reasonsOf({})).toContain('AwsSolutions-APIG3');
    expect(reasonsOf({ waf: true })).not.toContain('AwsSolutions-APIG3');
  });
});
