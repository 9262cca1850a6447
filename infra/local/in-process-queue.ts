// The twin's queues: instead of SQS, the consumer's handler is invoked with an SQS-shaped event. `inline`
// (the default) invokes it inside `send` and awaits it, so a webhook's effects are visible as soon as the
// delivery was answered; `queued` answers `send` once the message is queued, as SQS does, and the consumer
// works the queue in the background, a bounded number of messages at once, so the sender (the webhook
// receiver) does not wait for the delivery; `drained()` waits until it has worked everything sent so far.
// A message the consumer reports as failed is retried as SQS would, then set aside like a dead-letter queue.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { MessageQueue } from '../../shared/outbound/sqs-queue';
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
  const queue = new QueueWorkers(root, consumer, options);
  return {
    send: (message) => queue.send(message),
    deadLetters: () => [...queue.dead],
    counts: () => queue.counts(),
    drained: () => queue.drained(),
    stop: async () => queue.stop(),
  };
}

/** One queue's messages, its workers and the callers waiting for it to drain. */
class QueueWorkers<Message> {
  readonly dead: Message[] = [];
  private module: Promise<{ handler: unknown }> | undefined;
  private readonly mode: 'inline' | 'queued';
  private readonly maxReceives: number;
  private readonly retryDelayMs: (receive: number) => number;
  private readonly wait: (ms: number) => Promise<void>;
  private readonly describe: (message: Message) => Record<string, unknown>;
  private readonly concurrency: number;
  private readonly waiting: Array<{ message: Message; messageId: string; key: string | null }> = [];
  private readonly busyKeys = new Set<string>();
  private inFlight = 0;
  private consumed = 0;
  private stopped = false;
  private waiters: Array<{ upTo: number; resolve: () => void }> = [];
  // Sequence numbers of the messages sent and not yet worked: drained() waits for those up to its call.
  private sent = 0;
  private readonly unfinished = new Set<number>();
  private readonly seqOf = new Map<string, number>();

  constructor(
    private readonly root: string,
    private readonly consumer: { name: string; handler: string; timeoutSeconds: number },
    private readonly options: InProcessQueueOptions<Message>,
  ) {
    this.mode = options.mode ?? 'inline';
    const queuedMode = this.mode === 'queued';
    this.maxReceives = options.maxReceives ?? (queuedMode ? QUEUED_MAX_RECEIVES : MAX_RECEIVES);
    this.retryDelayMs = queuedMode ? (options.retryDelayMs ?? queuedRetryDelayMs) : () => 0;
    this.wait = options.wait ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref()));
    this.describe =
      options.describe ??
      ((message: Message) => ({ topic: (message as WebhookDelivery).topic, webhookId: (message as WebhookDelivery).webhookId }));
    this.concurrency = Math.max(1, options.concurrency ?? DEFAULT_QUEUE_CONCURRENCY);
  }

  counts(): QueueCounts {
    return {
      mode: this.mode,
      waiting: this.waiting.length,
      inFlight: this.inFlight,
      consumed: this.consumed,
      deadLetters: this.dead.length,
    };
  }

  async send(message: Message): Promise<void> {
    // One message id for every receive of the message, as SQS keeps it.
    const messageId = randomUUID();
    this.sent += 1;
    this.unfinished.add(this.sent);
    this.seqOf.set(messageId, this.sent);
    if (this.mode === 'inline') {
      this.inFlight += 1;
      try {
        await this.work(message, messageId);
      } finally {
        this.inFlight -= 1;
        this.settleWaiters();
      }
      return;
    }
    if (this.stopped) {
      this.forget(messageId);
      throw new Error(`The ${this.consumer.name} queue is stopped`);
    }
    this.waiting.push({ message, messageId, key: this.options.orderingKey?.(message) ?? null });
    this.pump();
  }

  drained(): Promise<QueueCounts> {
    return new Promise<QueueCounts>((resolve) => {
      this.waiters.push({ upTo: this.sent, resolve: () => resolve(this.counts()) });
      this.settleWaiters();
    });
  }

  stop(): void {
    this.stopped = true;
    for (const entry of this.waiting.splice(0)) this.forget(entry.messageId);
    this.settleWaiters();
  }

  private forget(messageId: string): void {
    this.unfinished.delete(this.seqOf.get(messageId)!);
    this.seqOf.delete(messageId);
  }

  /** One receive: the consumer's handler with a one-record batch; true when it took the message. */
  private async invoke(message: Message, messageId: string, receiveCount: number): Promise<boolean> {
    this.module ??= import(join(this.root, this.consumer.handler)) as Promise<{ handler: unknown }>;
    const handler = (await this.module).handler as ConsumerHandler;
    const event: SQSEvent = { Records: [sqsRecord(this.consumer.name, messageId, receiveCount, message)] };
    try {
      const result = await handler(event, lambdaContext(this.consumer.name, randomUUID(), this.consumer.timeoutSeconds));
      return !(result && result.batchItemFailures.length > 0);
    } catch (error) {
      console.error(
        JSON.stringify({ level: 'ERROR', message: 'Queue consumer failed', consumer: this.consumer.name, error: String(error) }),
      );
      return false;
    }
  }

  private settleWaiters(): void {
    if (this.waiters.length === 0) return;
    let oldest = Infinity;
    for (const seq of this.unfinished) oldest = Math.min(oldest, seq);
    const ready = this.waiters.filter((waiter) => waiter.upTo < oldest);
    this.waiters = this.waiters.filter((waiter) => waiter.upTo >= oldest);
    for (const waiter of ready) waiter.resolve();
  }

  /** Every receive of one message until one succeeds, then the dead-letter list. */
  private async work(message: Message, messageId: string): Promise<void> {
    try {
      await this.receiveAll(message, messageId);
    } finally {
      this.forget(messageId);
    }
  }

  private async receiveAll(message: Message, messageId: string): Promise<void> {
    for (let receive = 1; receive <= this.maxReceives; receive += 1) {
      if (await this.invoke(message, messageId, receive)) {
        this.consumed += 1;
        return;
      }
      const delay = receive < this.maxReceives ? this.retryDelayMs(receive) : 0;
      if (delay > 0 && !this.stopped) await this.wait(delay);
    }
    this.dead.push(message);
    console.error(
      JSON.stringify({
        level: 'ERROR',
        message: 'Message moved to the dead-letter list',
        consumer: this.consumer.name,
        ...this.describe(message),
      }),
    );
  }

  /** Starts workers while there are messages waiting and room under the concurrency; one message per key at once. */
  private pump(): void {
    while (!this.stopped && this.inFlight < this.concurrency) {
      const index = this.waiting.findIndex((entry) => entry.key === null || !this.busyKeys.has(entry.key));
      if (index < 0) return;
      const [next] = this.waiting.splice(index, 1);
      const { message, messageId, key } = next!;
      if (key !== null) this.busyKeys.add(key);
      this.inFlight += 1;
      void this.work(message, messageId)
        .catch((error: unknown) =>
          console.error(
            JSON.stringify({ level: 'ERROR', message: 'Queue worker failed', consumer: this.consumer.name, error: String(error) }),
          ),
        )
        .finally(() => {
          if (key !== null) this.busyKeys.delete(key);
          this.inFlight -= 1;
          this.pump();
          this.settleWaiters();
        });
    }
  }
}
