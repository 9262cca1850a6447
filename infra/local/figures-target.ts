// The twin's stand-in for the stack's figures rule and queue (infra/cdk/constructs/figures-delivery.ts): every
// event the bus delivers goes to the figures queue in EventBridge's envelope, and the manifest's
// `countProgramFigures` consumer takes them in batches, one batch at a time, as SQS's event source mapping
// hands it up to 100 records: what arrived while a batch was counted is the next batch. The bus does not wait:
// the target answers at once. A batch the consumer reports failed is handed again (three receives), then set
// aside as the figures dead-letter queue would.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { asBackgroundWork } from '../../shared/data/dynamodb-stats';
import { EVENT_SOURCE } from '../../shared/outbound/event-bus';
import type { QueueConsumer } from '../../shared/runtime/entry-points';
import { nowIso } from '../../shared/runtime/clock';
import { lambdaContext } from './gateway';
import { sqsRecord } from './in-process-queue';
import type { EventBridgeEnvelope } from './klaviyo-target';

/** The label of the figures consumer's DynamoDB calls in the twin's statistics (DYNAMODB_STATS). */
export const FIGURES_WORK = 'figures';
/** Records per consumer invocation, as the stack's event source mapping (FIGURES_BATCH). */
const BATCH_SIZE = 100;
/** Receives before a batch's events are set aside: the stack's queues' maxReceiveCount (MAX_RECEIVE_COUNT). */
const MAX_RECEIVES = 5;

type ConsumerHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

export interface FiguresTarget {
  /** Hands one delivered event (with its `id` and `type`) to the figures queue; answers at once. */
  (event: { id: string; type: string }): void;
  /** Resolves when every event handed so far has been counted (or set aside). */
  idle(): Promise<void>;
  /** Envelopes that failed every receive (the figures dead-letter queue). */
  deadLetters(): EventBridgeEnvelope[];
  /**
   * Takes no more events and drops those not yet handed to the consumer (the twin stops; a batch being counted
   * finishes), so no work of a stopped twin goes on against its table.
   */
  stop(): Promise<void>;
}

export function figuresTarget(root: string, consumer: QueueConsumer): FiguresTarget {
  let module: Promise<{ handler: unknown }> | undefined;
  const waiting: Array<{ envelope: EventBridgeEnvelope; messageId: string; receives: number }> = [];
  const dead: EventBridgeEnvelope[] = [];
  let working: Promise<void> | null = null;
  let stopped = false;

  const record = (message: (typeof waiting)[number]) => sqsRecord(consumer.name, message.messageId, message.receives, message.envelope);

  const countBatch = async (batch: typeof waiting) => {
    module ??= import(join(root, consumer.handler)) as Promise<{ handler: unknown }>;
    const handler = (await module).handler as ConsumerHandler;
    for (const message of batch) message.receives += 1;
    let failed: Set<string>;
    try {
      const result = await handler({ Records: batch.map(record) }, lambdaContext(consumer.name, randomUUID(), consumer.timeoutSeconds));
      failed = new Set((result?.batchItemFailures ?? []).map((failure) => failure.itemIdentifier));
    } catch (error) {
      console.error(JSON.stringify({ level: 'ERROR', message: 'Queue consumer failed', consumer: consumer.name, error: String(error) }));
      failed = new Set(batch.map((message) => message.messageId));
    }
    for (const message of batch) {
      if (!failed.has(message.messageId)) continue;
      if (stopped) continue;
      if (message.receives < MAX_RECEIVES) waiting.push(message);
      else {
        dead.push(message.envelope);
        console.error(
          JSON.stringify({
            level: 'ERROR',
            message: 'Message moved to the dead-letter list',
            consumer: consumer.name,
            eventId: message.envelope.id,
          }),
        );
      }
    }
  };

  const work = () => {
    // Its DynamoDB calls are the consumer's, never those of the request that committed the event.
    working ??= asBackgroundWork(FIGURES_WORK, async () => {
      try {
        while (waiting.length > 0) await countBatch(waiting.splice(0, BATCH_SIZE));
      } finally {
        working = null;
      }
    });
  };

  const target = ((event: { id: string; type: string }) => {
    if (stopped) return;
    waiting.push({
      messageId: randomUUID(),
      receives: 0,
      envelope: {
        version: '0',
        id: event.id,
        'detail-type': event.type,
        source: EVENT_SOURCE,
        account: '000000000000',
        time: nowIso(),
        region: 'local',
        resources: [],
        detail: event,
      },
    });
    work();
  }) as FiguresTarget;
  target.idle = async () => {
    while (working) await working;
  };
  target.deadLetters = () => [...dead];
  target.stop = async () => {
    stopped = true;
    waiting.length = 0;
    await target.idle();
  };
  return target;
}
