// The webhook delivery queue, between the webhook receiver and the delivery processor (every verified
// delivery: order, customer, app and privacy topics): encrypted, TLS only, a visibility timeout sized to the
// consumer, and a dead-letter queue for what still fails after a few attempts.
import { Duration } from 'aws-cdk-lib';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/** Receives of one message before it is parked in the dead-letter queue. */
export const MAX_RECEIVE_COUNT = 5;
/** AWS guidance for Lambda event sources: at least six times the function's timeout. */
export const VISIBILITY_TIMEOUT_FACTOR = 6;

export interface WebhookDeliveryQueueProps {
  /** The consumer function's timeout. */
  consumerTimeout: Duration;
}

export class WebhookDeliveryQueue extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;

  /**
   * `id` names the CloudFormation logical ids of both queues and their policies: the stack keeps the id the
   * queue was first deployed under (docs/decisions.md), so that renaming never replaces a queue holding messages.
   */
  constructor(scope: Construct, id: string, props: WebhookDeliveryQueueProps) {
    super(scope, id);
    // SQS-managed keys: EventBridge (the optional partner source) cannot send to a queue under the AWS-managed KMS key.
    this.deadLetterQueue = new Queue(this, 'DeadLetter', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    this.queue = new Queue(this, 'Queue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: Duration.seconds(props.consumerTimeout.toSeconds() * VISIBILITY_TIMEOUT_FACTOR),
      // Longer than the dead-letter path takes, so no message expires before it is parked.
      retentionPeriod: Duration.days(4),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: MAX_RECEIVE_COUNT },
    });
  }
}
