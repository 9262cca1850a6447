// Delivery of committed domain events, at least once (docs/events.md): the table's stream, filtered to the
// insertion of domain event items (`DOMAIN_EVENT#…`), feeds one function that puts each event on the bus.
// The stream's second and last reader, beside the authorizer cache's flusher. What the bus refuses is put
// again inside the invocation; a batch still refused reports its first undelivered record (partial batch
// response), the mapping hands it again, bisecting a batch that keeps failing, until the record is older than
// the stream keeps it; only then does the batch's description go to the on-failure queue, whose depth alarms,
// as does the stream's age at the function (events behind).
import { Duration } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { DOMAIN_EVENT_PREFIX } from '../../../shared/data/items/domain-event';
import type { EntryPoint } from '../../../shared/runtime/entry-points';
import { LoyaltyFunction } from './loyalty-function';

/** The stream filter: a domain event item's insertion only; its removal by the TTL and every other item never reach the function. */
export const DOMAIN_EVENT_FILTER = FilterCriteria.filter({
  eventName: FilterRule.isEqual('INSERT'),
  dynamodb: { Keys: { pk: { S: FilterRule.beginsWith(DOMAIN_EVENT_PREFIX) } } },
});
/** Lambda's largest: a batch is handed again until accepted while the stream keeps its records (24 hours). */
export const DELIVERY_RETRY_ATTEMPTS = 10_000;
export const DELIVERY_MAX_RECORD_AGE = Duration.hours(24);

export interface EventDeliveryProps {
  /** Where the function goes (a nested stack); the failures queue stays in this construct's stack. */
  functionScope?: Construct;
  /** The delivery's manifest entry (shared/runtime/entry-points.ts): its handler and grants. */
  entry: EntryPoint;
  table: Table;
  bus: IEventBus;
  environment: Record<string, string>;
  logRetention: RetentionDays;
}

export class EventDelivery extends Construct {
  readonly fn: LoyaltyFunction['fn'];
  /** Batches of events the bus refused for as long as the stream kept them: each message names the shard and sequence range. */
  readonly failures: Queue;

  constructor(scope: Construct, id: string, props: EventDeliveryProps) {
    super(scope, id);
    const { entry } = props;
    if (!entry.grants?.includes('eventStream'))
      throw new Error(`${entry.name}: an event delivery without the event stream delivers nothing`);
    const fn = new LoyaltyFunction(props.functionScope ?? this, props.functionScope ? id : 'Fn', {
      entry: entry.handler,
      description: 'Delivers committed domain events from the table stream to the event bus',
      environment: props.environment,
      logRetention: props.logRetention,
      timeout: Duration.seconds(60),
      memorySize: 256,
    }).bindTable(props.table, entry.table);
    this.fn = fn.fn;
    if (entry.uses?.includes('events')) props.bus.grantPutEventsTo(this.fn);

    this.failures = new Queue(this, 'Failures', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    this.fn.addEventSource(
      new DynamoEventSource(props.table, {
        // From the oldest record the stream keeps: an event committed while the mapping was made is not passed over.
        startingPosition: StartingPosition.TRIM_HORIZON,
        filters: [DOMAIN_EVENT_FILTER],
        // Within seconds: no waiting to fill a batch; one batch at a time per shard keeps a shard's order.
        batchSize: 100,
        maxBatchingWindow: Duration.seconds(0),
        parallelizationFactor: 1,
        bisectBatchOnError: true,
        reportBatchItemFailures: true,
        retryAttempts: DELIVERY_RETRY_ATTEMPTS,
        maxRecordAge: DELIVERY_MAX_RECORD_AGE,
        onFailure: new SqsDlq(this.failures),
      }),
    );
  }
}
