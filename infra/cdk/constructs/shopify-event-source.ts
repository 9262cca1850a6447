// Optional second way in for webhooks: a Shopify partner event source on its own event bus, and a rule that
// puts every Shopify webhook event on the webhook delivery queue, where the processor reads it (EventBridge is
// trusted, so these events carry no HMAC).
import { Duration } from 'aws-cdk-lib';
import { EventBus, Rule } from 'aws-cdk-lib/aws-events';
import { SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { SHOPIFY_EVENTBRIDGE_DETAIL_TYPE } from '../../../shared/webhooks/queued-delivery';

const PARTNER_SOURCE = /^aws\.partner\/shopify\.com\/[^/]+\/[^/]+$/;

export interface ShopifyEventSourceProps {
  /** The partner event source, `aws.partner/shopify.com/<app id>/<source name>`. */
  eventSourceName: string;
  queue: IQueue;
  /** Where events go that EventBridge could not deliver to the queue after its retries. */
  deadLetterQueue: IQueue;
}

export class ShopifyEventSource extends Construct {
  readonly bus: EventBus;
  readonly rule: Rule;

  constructor(scope: Construct, id: string, props: ShopifyEventSourceProps) {
    super(scope, id);
    if (!PARTNER_SOURCE.test(props.eventSourceName)) {
      throw new Error(
        `shopifyEventSourceName must look like aws.partner/shopify.com/<app id>/<source name>, got '${props.eventSourceName}'`,
      );
    }
    // A partner event bus is named after its source; creating it associates the source with the account.
    this.bus = new EventBus(this, 'Bus', { eventSourceName: props.eventSourceName });
    this.rule = new Rule(this, 'ToOrderQueue', {
      eventBus: this.bus,
      description: 'Shopify webhooks delivered through EventBridge, to the webhook delivery queue',
      eventPattern: { detailType: [SHOPIFY_EVENTBRIDGE_DETAIL_TYPE] },
      // The whole event is sent (no input transformer): the processor reads detail.metadata and detail.payload.
      targets: [new SqsQueue(props.queue, { deadLetterQueue: props.deadLetterQueue, retryAttempts: 8, maxEventAge: Duration.hours(24) })],
    });
  }
}
