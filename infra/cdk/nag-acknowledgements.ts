// cdk-nag AwsSolutions and ServerlessChecks findings this stack accepts, each with the reason. Anything
// not listed here fails the cdk-nag test.
import { NagSuppressions } from 'cdk-nag';
import type { LoyaltyStack } from './loyalty-stack';

export function acknowledgeNagFindings(stack: LoyaltyStack): void {
  // The stack-wide findings hold for its nested stacks too (the functions and the alarms live there).
  NagSuppressions.addStackSuppressions(
    stack,
    [
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
        // In a nested stack the table's ARN is a parameter (`referenceto<Stack>DataTable…Arn`).
        appliesTo: [
          { regex: '/^Resource::<(DataTable[A-Za-z0-9]+\\.Arn|referenceto[A-Za-z0-9]*DataTable[A-Za-z0-9]+Arn)>\\/index\\/\\*$/g' },
        ],
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
        id: 'AwsSolutions-APIG4',
        reason:
          "Every API method uses the Lambda REQUEST authorizer (API keys, as the spec requires); the only methods without it are the ANY mocks that answer 405 without reaching any backend, the platform webhooks (POST /webhooks/shopify), which Shopify cannot call with a key: their handler verifies the HMAC-SHA256 signature of the raw body with the shop's secret, and the shopper routes (/shopper/...) with their OPTIONS preflight mocks, which a storefront or customer account extension calls without a key: their handler verifies Shopify's app proxy signature or the customer session token (HS256 with the shop's app secret) before reading anything else, and the staff routes (/admin/api/...), each /v1 route's twin served by its own function, which Shopify's admin calls with App Bridge's ID token, not a key: the function verifies that token (HS256 with the shop's app secret, iss, dest, aud, exp) before reading anything else. The stage throttles all three per method.",
      },
      {
        id: 'AwsSolutions-COG4',
        reason:
          'The spec authenticates server-side callers with API keys (Authorization header) through a Lambda authorizer, not Cognito user pools.',
      },
    ],
    true,
  );
  // With the web ACL (-c waf=true) the stage is associated with it and APIG3 holds; without it, this is why.
  if (!stack.firewall) {
    NagSuppressions.addStackSuppressions(stack, [
      {
        id: 'AwsSolutions-APIG3',
        reason:
          'The AWS WAF web ACL is opt-in (-c waf=true, a monthly cost: docs/deploy.md). Without it, callers without a key are bounded by the stage default method throttle, which counts every request before the usage plan; the authorizer refuses a value that cannot be a key without any DynamoDB read, and an unknown well-formed one with one read.',
      },
    ]);
  }

  // Resource-level: the queues that receive what could not be delivered or processed are themselves dead-letter queues.
  const deadLetterQueues = [
    ['UndeliveredEvents/Resource', 'the EventBridge targets (the scheduled jobs, the Shopify partner source)'],
    // The webhook delivery queue keeps the construct id it was first deployed under (docs/decisions.md).
    ['OrderEvents/DeadLetter/Resource', 'the webhook delivery queue'],
    ['FailedJobRuns/Queue/Resource', "the scheduled jobs' asynchronous invocations (their on-failure destination)"],
    ['AuthorizerCacheFlusher/Failures/Resource', 'the authorizer-cache flusher (key changes whose flush failed after every retry)'],
    [
      'EventDelivery/Failures/Resource',
      'the event delivery (batches of domain events the bus refused for as long as the stream kept them)',
    ],
    ['Klaviyo/DeadLetter/Resource', 'the Klaviyo queue (events not delivered to Klaviyo after every receive)'],
    ['Klaviyo/Refused/Resource', "the Klaviyo consumer (the events Klaviyo refused, each with Klaviyo's error body)"],
  ] as const;
  for (const [path, of] of deadLetterQueues) {
    if (!stack.node.tryFindChild(path.split('/')[0]!)) continue;
    NagSuppressions.addResourceSuppressionsByPath(stack, `/${stack.node.path}/${path}`, [
      {
        id: 'AwsSolutions-SQS3',
        reason: `This queue is the dead-letter queue of ${of}: it is where failed work ends up, and it has an alarm on its depth. A dead-letter queue of its own would only move the question.`,
      },
      {
        id: 'Serverless-SQSRedrivePolicy',
        reason: `This queue is the dead-letter queue of ${of}, alarmed on its depth; nothing consumes it, so there is nothing to redrive from it.`,
      },
    ]);
  }

  // Serverless-LambdaDLQ asks for a DeadLetterConfig, which only async invocations use.
  for (const fn of stack.synchronousFunctions) {
    NagSuppressions.addResourceSuppressions(fn, [
      {
        id: 'Serverless-LambdaDLQ',
        reason:
          'Invoked synchronously (an API Gateway method or its authorizer): the caller receives the error response and retries; a dead-letter target only applies to asynchronous invocations.',
      },
    ]);
  }
  for (const fn of stack.queueConsumerFunctions) {
    NagSuppressions.addResourceSuppressions(
      fn,
      [
        {
          id: 'Serverless-LambdaDLQ',
          reason:
            "Invoked by an SQS event source mapping (synchronously, with partial batch failures): a record that keeps failing returns to the queue and goes to the queue's own dead-letter queue after 5 receives, alarmed on its depth.",
        },
        {
          id: 'Serverless-LambdaEventSourceMappingDestination',
          reason:
            "An SQS event source mapping takes no on-failure destination (that is for stream and Kafka sources); the source queue's redrive policy (5 receives, then its dead-letter queue) is the failure destination.",
        },
      ],
      true,
    );
  }
  for (const fn of stack.scheduledJobFunctions) {
    NagSuppressions.addResourceSuppressions(fn, [
      {
        id: 'Serverless-LambdaDLQ',
        reason:
          'Invoked asynchronously by its schedule, with explicit retries and an on-failure destination (the FailedJobRuns queue, alarmed), which records the error with the event; a DeadLetterConfig as well would deliver each failed run twice.',
      },
    ]);
  }

  NagSuppressions.addResourceSuppressionsByPath(stack, `/${stack.node.path}/Http/Api/Deployment/Resource`, [
    {
      id: 'CdkNagValidationFailure',
      reason:
        "The rule reads the deployment's StageDescription, which CDK does not set (the stage is its own resource); the stage's access log format is JSON, and the same rule passes on the stage.",
      appliesTo: ['Serverless-APIGWStructuredLogging'],
    },
  ]);
  // Alarm e-mails: a dead-letter queue for the subscription would need an alarm of its own, sent through this same topic.
  const subscriptions = stack.node.tryFindChild('Monitoring')?.node.tryFindChild('Observability')?.node.tryFindChild('AlarmTopic');
  if (subscriptions) {
    NagSuppressions.addResourceSuppressions(
      subscriptions,
      [
        {
          id: 'Serverless-SNSRedrivePolicy',
          reason:
            "The alarm topic's only subscription is the operator's e-mail address. A dead-letter queue for it would need an alarm, which would notify through this same topic; the alarms stay in ALARM state in CloudWatch and on the dashboard whether or not the e-mail arrives.",
        },
      ],
      true,
    );
  }
  // The authorizer-cache flusher (when the cache is on) is invoked by the table's stream, synchronously per batch.
  // The event delivery likewise, from the same stream.
  // Their functions live in the Workers nested stack, their failure queues in the main stack.
  const workers = stack.node.tryFindChild('Workers');
  const delivery = workers?.node.tryFindChild('EventDelivery');
  if (delivery) {
    NagSuppressions.addResourceSuppressions(
      delivery,
      [
        {
          id: 'Serverless-LambdaDLQ',
          reason:
            "Invoked by a DynamoDB stream event source mapping, not asynchronously: a batch the bus keeps refusing is handed again until its records are older than the stream keeps them, then described on the mapping's on-failure destination (the delivery's Failures queue, alarmed); a DeadLetterConfig only applies to asynchronous invocations.",
        },
      ],
      true,
    );
  }
  const flusher = workers?.node.tryFindChild('AuthorizerCacheFlusher');
  if (flusher) {
    NagSuppressions.addResourceSuppressions(
      flusher,
      [
        {
          id: 'Serverless-LambdaDLQ',
          reason:
            "Invoked by a DynamoDB stream event source mapping, not asynchronously: a batch whose flush keeps failing goes, after 10 retries, to the mapping's on-failure destination (the flusher's Failures queue, alarmed); a DeadLetterConfig only applies to asynchronous invocations.",
        },
      ],
      true,
    );
  }
}
