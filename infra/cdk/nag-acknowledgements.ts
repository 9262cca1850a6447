// cdk-nag AwsSolutions findings this stack accepts, each with the reason. Anything not listed here
// fails the cdk-nag test.
import type { Stack } from 'aws-cdk-lib';
import { NagSuppressions } from 'cdk-nag';

export function acknowledgeNagFindings(stack: Stack): void {
  NagSuppressions.addStackSuppressions(stack, [
    {
      id: 'AwsSolutions-IAM4',
      reason:
        'Lambda roles use AWSLambdaBasicExecutionRole (CloudWatch Logs writes only) and API Gateway uses AmazonAPIGatewayPushToCloudWatchLogs for its account-level logging role; both are the AWS-maintained minimal policies for exactly that.',
      appliesTo: [
        'Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole',
        'Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs',
      ],
    },
    {
      id: 'AwsSolutions-IAM5',
      reason:
        'X-Ray PutTraceSegments and PutTelemetryRecords (active tracing) only support Resource "*"; no data action is granted on "*".',
      appliesTo: ['Resource::*'],
    },
    {
      id: 'AwsSolutions-IAM5',
      reason: "Table grants include the table's own secondary indexes (<table arn>/index/*), which queries on GSIs and LSIs need.",
      appliesTo: [{ regex: '/^Resource::<DataTable[A-Za-z0-9]+\\.Arn>\\/index\\/\\*$/g' }],
    },
    {
      id: 'AwsSolutions-IAM5',
      reason:
        'Shopify credentials are read only under the configured secret-name prefix; Secrets Manager appends a random suffix to every secret ARN, so the prefix needs a trailing wildcard.',
      appliesTo: [{ regex: '/^Resource::arn:<AWS::Partition>:secretsmanager:.+:secret:.*\\*$/g' }],
    },
    {
      id: 'AwsSolutions-APIG2',
      reason:
        "Request validation happens in each handler with zod and answers in the spec's error envelope, which API Gateway request validators cannot produce.",
    },
    {
      id: 'AwsSolutions-APIG3',
      reason:
        'A WAF web ACL is a per-store choice (cost, rules); the API is server-to-server with per-key throttling by the usage plan. Attach one to the stage if required.',
    },
    {
      id: 'AwsSolutions-APIG4',
      reason:
        "Every API method uses the Lambda REQUEST authorizer (API keys, as the spec requires); the only methods without it are the ANY mocks that answer 405 without reaching any backend, and the platform webhooks (POST /webhooks/shopify), which Shopify cannot call with a key: their handler verifies the HMAC-SHA256 signature of the raw body with the shop's secret, and the stage throttles them per method.",
    },
    {
      id: 'AwsSolutions-COG4',
      reason:
        'The spec authenticates server-side callers with API keys (Authorization header) through a Lambda authorizer, not Cognito user pools.',
    },
  ]);
  // Resource-level: the queue that receives what EventBridge could not deliver is itself a dead-letter queue.
  NagSuppressions.addResourceSuppressionsByPath(stack, `/${stack.node.path}/UndeliveredEvents/Resource`, [
    {
      id: 'AwsSolutions-SQS3',
      reason:
        'This queue is the dead-letter queue of the EventBridge targets (the scheduled jobs, the Shopify partner source): it is where undelivered events end up, and it has an alarm on its depth. A dead-letter queue of its own would only move the question.',
    },
  ]);
  NagSuppressions.addResourceSuppressionsByPath(stack, `/${stack.node.path}/AuthorizerCacheFlusher/Failures/Resource`, [
    {
      id: 'AwsSolutions-SQS3',
      reason:
        'This queue is the on-failure destination of the authorizer-cache flusher (key changes whose flush failed after every retry), alarmed on its depth: it is itself the dead-letter queue.',
    },
  ]);
}
