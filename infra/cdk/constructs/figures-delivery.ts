// The way to the program's figures (docs/admin.md#figures): a rule on the loyalty bus (Source `loyalty-api`,
// every type) puts each event on the figures queue, whose consumer counts it once. What the consumer could not
// count after a few receives goes, as what EventBridge could not hand to the queue, to the stack's undelivered
// events queue (alarmed on one message): an event its target did not take either way, redriven to the figures
// queue. No dead-letter queue of its own: the stack stays under its resource budget (test/infra/synth.test.ts).
import { Duration } from 'aws-cdk-lib';
import { type IEventBus, Rule } from 'aws-cdk-lib/aws-events';
import { SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { EVENT_SOURCE } from '../../../shared/outbound/event-bus';
import { MAX_RECEIVE_COUNT, VISIBILITY_TIMEOUT_FACTOR } from './webhook-delivery-queue';

/** Records per consumer invocation and how long SQS may wait to fill a batch (fewer, larger transactions). */
export const FIGURES_BATCH = { batchSize: 100, maxBatchingWindow: Duration.seconds(5) };

export interface FiguresDeliveryProps {
  bus: IEventBus;
  consumerTimeout: Duration;
  undeliveredEvents: IQueue;
}

export class FiguresDelivery extends Construct {
  readonly queue: Queue;

  constructor(scope: Construct, id: string, props: FiguresDeliveryProps) {
    super(scope, id);
    // SQS-managed keys: EventBridge cannot send to a queue under the AWS-managed KMS key.
    this.queue = new Queue(this, 'Queue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: Duration.seconds(props.consumerTimeout.toSeconds() * VISIBILITY_TIMEOUT_FACTOR),
      retentionPeriod: Duration.days(4),
      deadLetterQueue: { queue: props.undeliveredEvents, maxReceiveCount: MAX_RECEIVE_COUNT },
    });
    new Rule(this, 'Rule', {
      eventBus: props.bus,
      description: 'Every loyalty event to the figures queue',
      eventPattern: { source: [EVENT_SOURCE] },
      targets: [new SqsQueue(this.queue, { retryAttempts: 10, maxEventAge: Duration.hours(24), deadLetterQueue: props.undeliveredEvents })],
    });
  }
}
