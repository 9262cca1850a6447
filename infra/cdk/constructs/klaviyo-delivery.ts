// The way to Klaviyo, apart from the API: a rule on the loyalty bus (Source `loyalty-api`, the types Klaviyo
// hears of) puts each event on the Klaviyo queue, whose consumer sends it on. Beside the queue, two
// dead-letter queues: what the consumer could not deliver after a few receives (Klaviyo down for long,
// an unexpected failure), and what Klaviyo refused (a 4XX other than 429), which the consumer parks itself
// with Klaviyo's error body. Both alarm through the observability construct's dead-letter alarms.
import { Duration } from 'aws-cdk-lib';
import { type IEventBus, Rule } from 'aws-cdk-lib/aws-events';
import { SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { EVENT_SOURCE } from '../../../shared/outbound/event-bus';
import { KLAVIYO_EVENT_TYPES } from '../../../shared/klaviyo/loyalty-event';
import { MAX_RECEIVE_COUNT, VISIBILITY_TIMEOUT_FACTOR } from './webhook-delivery-queue';

/**
 * Receives of one event before it is parked, as every queue of the stack: five, twelve minutes apart (the
 * visibility timeout), so with the consumer's own retries a Klaviyo outage of about an hour.
 */
export const KLAVIYO_MAX_RECEIVE_COUNT = MAX_RECEIVE_COUNT;
/** Records per consumer invocation and how long SQS may wait to fill a batch. */
export const KLAVIYO_BATCH = { batchSize: 10, maxBatchingWindow: Duration.seconds(2) };

export interface KlaviyoDeliveryProps {
  bus: IEventBus;
  /** The consumer function's timeout. */
  consumerTimeout: Duration;
  /** Where EventBridge puts what it could not hand to the queue after its retries. */
  undeliveredEvents: IQueue;
}

export class KlaviyoDelivery extends Construct {
  readonly queue: Queue;
  /** What the consumer could not deliver after KLAVIYO_MAX_RECEIVE_COUNT receives. */
  readonly deadLetterQueue: Queue;
  /** What Klaviyo refused, each with Klaviyo's error body (never the key). */
  readonly refusedQueue: Queue;
  readonly rule: Rule;

  constructor(scope: Construct, id: string, props: KlaviyoDeliveryProps) {
    super(scope, id);
    // SQS-managed keys: EventBridge cannot send to a queue under the AWS-managed KMS key.
    this.deadLetterQueue = new Queue(this, 'DeadLetter', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    this.refusedQueue = new Queue(this, 'Refused', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    this.queue = new Queue(this, 'Queue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: Duration.seconds(props.consumerTimeout.toSeconds() * VISIBILITY_TIMEOUT_FACTOR),
      retentionPeriod: Duration.days(4),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: KLAVIYO_MAX_RECEIVE_COUNT },
    });
    this.rule = new Rule(this, 'Rule', {
      eventBus: props.bus,
      description: 'Loyalty events to the Klaviyo queue',
      eventPattern: { source: [EVENT_SOURCE], detailType: [...KLAVIYO_EVENT_TYPES] },
      targets: [new SqsQueue(this.queue, { retryAttempts: 10, maxEventAge: Duration.hours(24), deadLetterQueue: props.undeliveredEvents })],
    });
  }
}
