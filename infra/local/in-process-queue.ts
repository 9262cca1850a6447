// The twin's queues: instead of SQS, the consumer's handler is invoked with an SQS-shaped event. `inline`
// (the default) invokes it inside `send` and awaits it, so a webhook's effects are visible as soon as the
// delivery was answered; `queued` answers `send` once the message is queued, as SQS does, and the consumer
// works the queue in the background, a bounded number of messages at once, so the sender (the webhook
// receiver) does not wait for the delivery; `drained()` waits until it has worked everything sent so far.
// A message the consumer reports as failed is retried as SQS would, then set aside like a dead-letter queue.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { MessageQueue } from '../../shared/events/sqs-queue';
import type { WebhookDelivery } from '../../shared/webhooks/queued-delivery';
import { lambdaContext } from './gateway';

type ConsumerHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

export interface InProcessQueue<Message = WebhookDelivery> extends MessageQueue<Message> {
  /** Messages that failed every attempt (the twin's dead-letter queue). */
  deadLetters(): Message[];
}

/** The queue `inProcessQueue` gives: its counts, a wait for everything sent to be worked, and its stop. */
export interface DrainableQueue<Message = WebhookDelivery> extends InProcessQueue<Message> {
  /** Where the queue stands: messages waiting, being worked, worked (consumed or set aside) since the start. */
  counts(): QueueCounts;
  /**
   * Resolves once every message sent before the call has been consumed or set aside (messages sent later are
   * not waited for, so a busy queue does not keep it waiting).
   */
  drained(): Promise<QueueCounts>;
  /** Takes no more messages and drops those waiting; the ones being worked finish. */
  stop(): Promise<void>;
}

/** `inline`: `send` runs the consumer and answers after it; `queued`: `send` answers once the message is queued. */
export type DeliveryMode = 'inline' | 'queued';

export interface QueueCounts {
  mode: DeliveryMode;
  /** Sent and not yet handed to the consumer. */
  waiting: number;
  /** Handed to the consumer (a receive in progress, or waiting for the next). */
  inFlight: number;
  /** Consumed (the consumer reported success). */
  consumed: number;
  /** Set aside after failing every receive. */
  deadLetters: number;
}

const MAX_RECEIVES = 3;
/**
 * Receives in `queued` mode before a message is set aside: the stack's queues' `maxReceiveCount`
 * (infra/cdk/constructs/webhook-delivery-queue.ts, MAX_RECEIVE_COUNT).
 */
export const QUEUED_MAX_RECEIVES = 5;
/**
 * In `queued` mode, how long a failed message waits before its next receive: SQS hands it out again only
 * when its visibility timeout ends (six times the consumer's timeout in the stack), so a burst that makes
 * every attempt time out is not retried into the dead-letter queue within a second. The twin waits 1, 2, 4,
 * then 8 s (15 s over five receives) rather than minutes.
 */
export function queuedRetryDelayMs(receive: number): number {
  return Math.min(8000, 1000 * 2 ** (receive - 1));
}
/** Messages the consumer works at once in `queued` mode (SQS's event source mapping polls in batches, a few at a time). */
export const DEFAULT_QUEUE_CONCURRENCY = 4;

export interface InProcessQueueOptions<Message> {
  /** What the dead-letter log line says of a message (default: a webhook delivery's topic and id). */
  describe?: (message: Message) => Record<string, unknown>;
  /** Receives before a message is set aside (default 3 inline, QUEUED_MAX_RECEIVES queued). */
  maxReceives?: number;
  /** Queued mode: the wait after a failed receive (default queuedRetryDelayMs; inline never waits). */
  retryDelayMs?: (receive: number) => number;
  /** How a retry waits (default a timer); a test passes its own to see the waits without sleeping. */
  wait?: (ms: number) => Promise<void>;
  /** `inline` (default) or `queued` (see the top of this file). */
  mode?: DeliveryMode;
  /** In `queued` mode, messages worked at once (default 4). */
  concurrency?: number;
  /**
   * In `queued` mode, messages of one key are worked one after the other, in the order sent (null: no key).
   * The twin keys webhook deliveries by their order, so one order's deliveries are processed in the order
   * Shopify sent them, as inline processing did.
   */
  orderingKey?: (message: Message) => string | null;
}

/** One SQS record as the event source mapping hands it to the queue's consumer (its `receiveCount`-th receive). */
export function sqsRecord(queueName: string, messageId: string, receiveCount: number, message: unknown): SQSRecord {
  return {
    messageId,
    receiptHandle: `${messageId}#${receiveCount}`,
    body: JSON.stringify(message),
    attributes: {
      ApproximateReceiveCount: String(receiveCount),
      SentTimestamp: String(Date.now()),
      SenderId: 'local',
      ApproximateFirstReceiveTimestamp: String(Date.now()),
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: `arn:aws:sqs:local:000000000000:${queueName}`,
    awsRegion: 'local',
  };
}

export function inProcessQueue<Message = WebhookDelivery>(
  root: string,
  consumer: { name: string; handler: string; timeoutSeconds: number },
  options: InProcessQueueOptions<Message> = {},
): DrainableQueue<Message> {
  let module: Promise<{ handler: unknown }> | undefined;
  const dead: Message[] = [];
  const queuedMode = (options.mode ?? 'inline') === 'queued';
  const maxReceives = options.maxReceives ?? (queuedMode ? QUEUED_MAX_RECEIVES : MAX_RECEIVES);
  const retryDelayMs = queuedMode ? (options.retryDelayMs ?? queuedRetryDelayMs) : () => 0;
  const wait = options.wait ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref()));
  const describe =
    options.describe ??
    ((message: Message) => ({ topic: (message as WebhookDelivery).topic, webhookId: (message as WebhookDelivery).webhookId }));
  const invoke = async (message: Message, messageId: string, receiveCount: number): Promise<boolean> => {
    module ??= import(join(root, consumer.handler)) as Promise<{ handler: unknown }>;
    const handler = (await module).handler as ConsumerHandler;
    const event: SQSEvent = { Records: [sqsRecord(consumer.name, messageId, receiveCount, message)] };
    try {
      const result = await handler(event, lambdaContext(consumer.name, randomUUID(), consumer.timeoutSeconds));
      return !(result && result.batchItemFailures.length > 0);
    } catch (error) {
      console.error(JSON.stringify({ level: 'ERROR', message: 'Queue consumer failed', consumer: consumer.name, error: String(error) }));
      return false;
    }
  };
  const mode = options.mode ?? 'inline';
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_QUEUE_CONCURRENCY);
  const waiting: Array<{ message: Message; messageId: string; key: string | null }> = [];
  const busyKeys = new Set<string>();
  let inFlight = 0;
  let consumed = 0;
  let stopped = false;
  let waiters: Array<{ upTo: number; resolve: () => void }> = [];
  // Sequence numbers of the messages sent and not yet worked: drained() waits for those up to its call.
  let sent = 0;
  const unfinished = new Set<number>();
  const counts = (): QueueCounts => ({ mode, waiting: waiting.length, inFlight, consumed, deadLetters: dead.length });
  const settleWaiters = () => {
    if (waiters.length === 0) return;
    let oldest = Infinity;
    for (const seq of unfinished) oldest = Math.min(oldest, seq);
    const ready = waiters.filter((waiter) => waiter.upTo < oldest);
    waiters = waiters.filter((waiter) => waiter.upTo >= oldest);
    for (const waiter of ready) waiter.resolve();
  };

  /** Every receive of one message until one succeeds, then the dead-letter list. */
  const work = async (message: Message, messageId: string): Promise<void> => {
    try {
      await receiveAll(message, messageId);
    } finally {
      unfinished.delete(seqOf.get(messageId)!);
      seqOf.delete(messageId);
    }
  };
  const seqOf = new Map<string, number>();
  const receiveAll = async (message: Message, messageId: string): Promise<void> => {
    for (let receive = 1; receive <= maxReceives; receive += 1) {
      if (await invoke(message, messageId, receive)) {
        consumed += 1;
        return;
      }
      const delay = receive < maxReceives ? retryDelayMs(receive) : 0;
      if (delay > 0 && !stopped) await wait(delay);
    }
    dead.push(message);
    console.error(
      JSON.stringify({ level: 'ERROR', message: 'Message moved to the dead-letter list', consumer: consumer.name, ...describe(message) }),
    );
  };

  /** Starts workers while there are messages waiting and room under the concurrency; one message per key at once. */
  const pump = () => {
    while (!stopped && inFlight < concurrency) {
      const index = waiting.findIndex((entry) => entry.key === null || !busyKeys.has(entry.key));
      if (index < 0) return;
      const [next] = waiting.splice(index, 1);
      const { message, messageId, key } = next!;
      if (key !== null) busyKeys.add(key);
      inFlight += 1;
      void work(message, messageId)
        .catch((error: unknown) =>
          console.error(JSON.stringify({ level: 'ERROR', message: 'Queue worker failed', consumer: consumer.name, error: String(error) })),
        )
        .finally(() => {
          if (key !== null) busyKeys.delete(key);
          inFlight -= 1;
          pump();
          settleWaiters();
        });
    }
  };

  return {
    async send(message) {
      // One message id for every receive of the message, as SQS keeps it.
      const messageId = randomUUID();
      sent += 1;
      unfinished.add(sent);
      seqOf.set(messageId, sent);
      if (mode === 'inline') {
        inFlight += 1;
        try {
          await work(message, messageId);
        } finally {
          inFlight -= 1;
          settleWaiters();
        }
        return;
      }
      if (stopped) {
        unfinished.delete(seqOf.get(messageId)!);
        seqOf.delete(messageId);
        throw new Error(`The ${consumer.name} queue is stopped`);
      }
      waiting.push({ message, messageId, key: options.orderingKey?.(message) ?? null });
      pump();
    },
    deadLetters: () => [...dead],
    counts,
    drained: () =>
      new Promise<QueueCounts>((resolve) => {
        waiters.push({ upTo: sent, resolve: () => resolve(counts()) });
        settleWaiters();
      }),
    async stop() {
      stopped = true;
      for (const entry of waiting.splice(0)) {
        unfinished.delete(seqOf.get(entry.messageId)!);
        seqOf.delete(entry.messageId);
      }
      settleWaiters();
    },
  };
}
