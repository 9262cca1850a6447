// CDK entry point (`cdk synth`, `cdk deploy`). Context parameters:
//   -c alarmEmail=ops@example.com   -c shopifySecretPrefix=loyalty/shopify/   -c logRetentionDays=30
//   -c detailedTracing=true   (X-Ray subsegments per AWS and Shopify call; slower cold starts, docs/performance.md)
//   -c shopifyEventSourceName=aws.partner/shopify.com/<app id>/<source>   (webhooks through EventBridge too, docs/deploy.md)
//   -c waf=true   -c wafRateLimit=15000   (AWS WAF rate rule per source IP, monthly cost in docs/deploy.md)
//   -c fullRateKeys=10   (the stage's default throttle: this many keys at the usage plan's standard rate)
//   -c authorizerCacheTtlSeconds=300   (authorizer answers cached per key, flushed on every key change; 0: off)
import { App, Aspects } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { LoyaltyStack } from './loyalty-stack';
import { acknowledgeNagFindings } from './nag-acknowledgements';
import { synthSummary } from './synth-summary';

const app = new App();
const context = (name: string): string | undefined => app.node.tryGetContext(name) ?? undefined;
const retentionDays = context('logRetentionDays');
const wholeNumber = (name: string): number | undefined => (context(name) === undefined ? undefined : Number(context(name)));
const fullRateKeys = wholeNumber('fullRateKeys');
const wafRateLimit = wholeNumber('wafRateLimit');

const stack = new LoyaltyStack(app, context('stackName') ?? 'LoyaltyApi', {
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  ...(context('alarmEmail') ? { alarmEmail: context('alarmEmail') } : {}),
  ...(context('shopifySecretPrefix') ? { shopifySecretPrefix: context('shopifySecretPrefix') } : {}),
  ...(retentionDays ? { logRetention: Number(retentionDays) as RetentionDays } : {}),
  ...(String(context('detailedTracing')) === 'true' ? { detailedTracing: true } : {}),
  ...(context('shopifyEventSourceName') ? { shopifyEventSourceName: context('shopifyEventSourceName') } : {}),
  ...(String(context('waf')) === 'true' ? { waf: true } : {}),
  ...(wafRateLimit !== undefined ? { wafRateLimit } : {}),
  ...(fullRateKeys !== undefined ? { fullRateKeys } : {}),
  ...(context('authorizerCacheTtlSeconds') !== undefined
    ? { authorizerCacheTtlSeconds: Number(context('authorizerCacheTtlSeconds')) }
    : {}),
});
acknowledgeNagFindings(stack);
Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
Aspects.of(app).add(new ServerlessChecks({ verbose: true }));

// Synthesized here rather than on exit, so the run ends with what was written and where.
const summary = synthSummary(app.synth());
if (summary) process.stdout.write(`${summary}\n`);
