import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { synthStack } from '../support/synth-stack';

describe('cdk-nag AwsSolutions checks', () => {
  it('leave no unacknowledged finding on the stack', () => {
    const { stack } = synthStack({ nag: true });
    const annotations = Annotations.fromStack(stack);

    const findings = [
      ...annotations.findError('*', Match.stringLikeRegexp('AwsSolutions-.*')),
      ...annotations.findWarning('*', Match.stringLikeRegexp('AwsSolutions-.*')),
    ].map((finding) => `${finding.id}: ${String(finding.entry.data).split('\n')[0]}`);

    expect(findings).toEqual([]);
  });
});
