// cdk-nag's AwsSolutions pack over the whole stack, with and without the Shopify partner event source:
// every finding is fixed or acknowledged with a reason in infra/cdk/nag-acknowledgements.ts.
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { synthStack } from '../support/synth-stack';

const PARTNER_SOURCE = 'aws.partner/shopify.com/123456/loyalty';

describe('cdk-nag AwsSolutions checks', () => {
  it.each([
    ['the default stack', {}],
    ['the stack with the Shopify partner event source', { shopifyEventSourceName: PARTNER_SOURCE }],
  ])('leave no unacknowledged finding on %s', (_, props) => {
    const { stack } = synthStack({ nag: true, props });
    const annotations = Annotations.fromStack(stack);

    const findings = [
      ...annotations.findError('*', Match.stringLikeRegexp('AwsSolutions-.*')),
      ...annotations.findWarning('*', Match.stringLikeRegexp('AwsSolutions-.*')),
    ].map((finding) => `${finding.id}: ${String(finding.entry.data).split('\n')[0]}`);

    expect(findings).toEqual([]);
  });
});
