// Synthesizes the production stack for assertions, without bundling the functions (fast); the real
// bundling synth runs in test/infra/synth.test.ts.
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
