// The twin's reader of the table's stream, as Lambda's event source mapping reads it in the cloud: DynamoDB
// Local implements the Streams API, so this polls each shard of the table's stream in order (a parent before
// its children), hands every batch of records to the delivery function (the cloud's handler module, which
// puts the batch's domain events on the twin's bus) and keeps a checkpoint: the last sequence number
// handled, per shard. With --persist the checkpoint is a file in the twin's data directory, written after
// the bus accepted the batch: a twin killed right after a commit reads that commit's records again when it
// starts, so its events are delivered (a batch delivered just before the kill may be delivered twice).
// `caughtUp()` lets GET /_events answer once the records of every change committed before it are handled.
import { readFile, rename, writeFile } from 'node:fs/promises';
import { DescribeTableCommand, UpdateTableCommand } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
  type Shard,
} from '@aws-sdk/client-dynamodb-streams';
import { STREAM_VIEW_TYPE } from '../../shared/data/table';
import { localClient } from './dynamodb-local';

/** Hands a batch of records (stream order) on; answers the sequence number of the first not delivered, or null. */
export type DeliverBatch = (records: readonly StreamRecord[]) => Promise<string | null>;

export interface EventStreamReaderOptions {
  endpoint: string;
  tableName: string;
  deliver: DeliverBatch;
  /** Keeps the checkpoint in this file (the twin's data directory under --persist); in memory without one. */
  checkpointFile?: string;
  /** True while the bus refuses: `caughtUp()` then answers at once (what was delivered is all there is). */
  busRefusing: () => boolean;
  /** The wait between two polls of a stream with nothing new (default 250 ms; a waiter wakes it). */
  idleMs?: number;
  /** The wait after a batch was refused before it is read again (default 250 ms). */
  retryMs?: number;
  /** The longest `caughtUp()` waits (default 10 s): a reader that cannot catch up never holds a request for ever. */
  caughtUpTimeoutMs?: number;
}

export interface EventStreamReader {
  /** Resolves once every change committed before the call has been handed to the bus, or at once while it refuses. */
  caughtUp(): Promise<void>;
  /** Batches handed on, and how many of them the bus refused, since the start. */
  stats(): { batches: number; refusedBatches: number };
  stop(): Promise<void>;
}

interface Checkpoint {
  streamArn: string;
  /** The last sequence number handled, per shard. */
  shards: Record<string, string>;
}

interface ShardState {
  shard: Shard;
  iterator?: string;
  /** Closed and read to its end. */
  done: boolean;
}

const RECORDS_PER_CALL = 1000;
/** How often the list of shards is read again (a shard closes and children open as DynamoDB rolls them). */
const DESCRIBE_EVERY_MS = 2000;

export async function startEventStreamReader(options: EventStreamReaderOptions): Promise<EventStreamReader> {
  const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
  const streams = new DynamoDBStreamsClient({ endpoint: options.endpoint, region: 'us-east-1', credentials });
  const streamArn = await enableStream(options.endpoint, options.tableName);
  const saved = options.checkpointFile ? await readCheckpoint(options.checkpointFile) : null;
  // Another stream (the table made again) starts over from its oldest record.
  const checkpoint: Checkpoint = saved && saved.streamArn === streamArn ? saved : { streamArn, shards: {} };
  const reader = new StreamReader(options, streams, checkpoint);
  const loop = reader.run();
  return {
    caughtUp: () => reader.caughtUp(),
    stats: () => ({ batches: reader.batches, refusedBatches: reader.refusedBatches }),
    async stop() {
      reader.stop();
      await loop;
      reader.releaseWaiters();
      streams.destroy();
    },
  };
}

/** What one pass over the shards ended with: everything handled, or not (and whether the bus refused a batch). */
type PassOutcome = { complete: boolean; refused: boolean };

/** The polling loop over one stream's shards, its checkpoint and the callers waiting for it to catch up. */
class StreamReader {
  batches = 0;
  refusedBatches = 0;
  private readonly shards = new Map<string, ShardState>();
  private describedAt = 0;
  private stopped = false;
  private passes = 0;
  private waiters: Array<{ after: number; resolve: () => void }> = [];
  private wake: (() => void) | undefined;
  // Idle, it looks four times a second, as Lambda polls a DynamoDB stream's shard; `caughtUp()` (GET /_events,
  // a test's wait) wakes it at once.
  private readonly idleMs: number;
  private readonly retryMs: number;

  constructor(
    private readonly options: EventStreamReaderOptions,
    private readonly streams: DynamoDBStreamsClient,
    private readonly checkpoint: Checkpoint,
  ) {
    this.idleMs = options.idleMs ?? 250;
    this.retryMs = options.retryMs ?? 250;
  }

  /** Passes until stopped: at once while callers wait or records came, after `idleMs` when idle, `retryMs` after a refusal. */
  async run(): Promise<void> {
    while (!this.stopped) {
      this.passes += 1;
      const thisPass = this.passes;
      let outcome: PassOutcome;
      try {
        outcome = await this.pass();
      } catch (error) {
        if (this.stopped) break;
        console.error(JSON.stringify({ level: 'ERROR', message: 'Event stream reader failed a pass', error: String(error) }));
        outcome = { complete: false, refused: false };
      }
      this.settle(outcome.complete ? thisPass : 0);
      if (this.stopped) break;
      await this.sleep(outcome.refused ? this.retryMs : outcome.complete && this.waiters.length === 0 ? this.idleMs : 0);
    }
  }

  caughtUp(): Promise<void> {
    if (this.stopped || this.options.busRefusing()) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, this.options.caughtUpTimeoutMs ?? 10_000);
      // A pass that starts after this call has seen every record committed before it.
      this.waiters.push({
        after: this.passes,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
      this.wake?.();
    });
  }

  stop(): void {
    this.stopped = true;
    this.wake?.();
  }

  releaseWaiters(): void {
    for (const waiter of this.waiters) waiter.resolve();
    this.waiters = [];
  }

  private async describe(): Promise<void> {
    let start: string | undefined;
    do {
      const { StreamDescription } = await this.streams.send(
        new DescribeStreamCommand({ StreamArn: this.checkpoint.streamArn, ...(start ? { ExclusiveStartShardId: start } : {}) }),
      );
      for (const shard of StreamDescription?.Shards ?? []) {
        if (!this.shards.has(shard.ShardId!)) this.shards.set(shard.ShardId!, { shard, done: false });
        else this.shards.get(shard.ShardId!)!.shard = shard;
      }
      start = StreamDescription?.LastEvaluatedShardId;
    } while (start);
    this.describedAt = Date.now();
  }

  private async saveCheckpoint(): Promise<void> {
    const file = this.options.checkpointFile;
    if (!file) return;
    const temporary = `${file}.tmp`;
    await writeFile(temporary, JSON.stringify(this.checkpoint), 'utf8');
    await rename(temporary, file);
  }

  private async iteratorOf(state: ShardState): Promise<string | undefined> {
    const after = this.checkpoint.shards[state.shard.ShardId!];
    const { ShardIterator } = await this.streams.send(
      new GetShardIteratorCommand({
        StreamArn: this.checkpoint.streamArn,
        ShardId: state.shard.ShardId!,
        ...(after ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: after } : { ShardIteratorType: 'TRIM_HORIZON' }),
      }),
    );
    return ShardIterator;
  }

  /** Reads every shard to its current end; answers whether all was handled (nothing refused). */
  private async pass(): Promise<PassOutcome> {
    if (Date.now() - this.describedAt > DESCRIBE_EVERY_MS) await this.describe();
    let complete = true;
    for (const state of inLineage(this.shards)) {
      if (state.done) continue;
      const parent = state.shard.ParentShardId ? this.shards.get(state.shard.ParentShardId) : undefined;
      if (parent && !parent.done) {
        complete = false;
        continue;
      }
      const outcome = await this.readShard(state);
      if (outcome) return outcome;
    }
    return { complete, refused: false };
  }

  /** Reads one shard to its current end: null when all was handed on, else how the pass ends. */
  private async readShard(state: ShardState): Promise<PassOutcome | null> {
    for (;;) {
      state.iterator ??= await this.iteratorOf(state);
      if (!state.iterator) {
        state.done = true;
        return null;
      }
      let answer;
      try {
        answer = await this.streams.send(new GetRecordsCommand({ ShardIterator: state.iterator, Limit: RECORDS_PER_CALL }));
      } catch {
        // An expired or trimmed iterator: read again from the checkpoint on the next pass.
        state.iterator = undefined;
        return { complete: false, refused: false };
      }
      const records = answer.Records ?? [];
      if (records.length > 0 && !(await this.deliver(state, records))) {
        state.iterator = undefined;
        return { complete: false, refused: true };
      }
      state.iterator = answer.NextShardIterator;
      if (!state.iterator) {
        state.done = true;
        // Its children may be new: read the shards again on the next pass.
        this.describedAt = 0;
        return null;
      }
      if (records.length === 0) return null;
    }
  }

  /** Hands a batch on and checkpoints what was handled; false when the bus refused part of it. */
  private async deliver(state: ShardState, records: StreamRecord[]): Promise<boolean> {
    this.batches += 1;
    const firstUndelivered = await this.options.deliver(records);
    const undeliveredAt =
      firstUndelivered === null ? records.length : records.findIndex((r) => r.dynamodb?.SequenceNumber === firstUndelivered);
    const handled = records.slice(0, Math.max(undeliveredAt, 0));
    const last = handled.at(-1)?.dynamodb?.SequenceNumber;
    if (last) {
      this.checkpoint.shards[state.shard.ShardId!] = last;
      await this.saveCheckpoint();
    }
    if (firstUndelivered === null) return true;
    this.refusedBatches += 1;
    return false;
  }

  private settle(upTo: number): void {
    const waiting = this.waiters;
    this.waiters = [];
    for (const waiter of waiting) {
      if (waiter.after < upTo || this.options.busRefusing()) waiter.resolve();
      else this.waiters.push(waiter);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => done(), ms);
      const done = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      this.wake = done;
    });
  }
}

/** Parents before their children; otherwise in the order DynamoDB listed them. */
function inLineage(shards: Map<string, ShardState>): ShardState[] {
  const ordered: ShardState[] = [];
  const seen = new Set<string>();
  const visit = (state: ShardState) => {
    if (seen.has(state.shard.ShardId!)) return;
    seen.add(state.shard.ShardId!);
    const parent = state.shard.ParentShardId ? shards.get(state.shard.ParentShardId) : undefined;
    if (parent) visit(parent);
    ordered.push(state);
  };
  for (const state of shards.values()) visit(state);
  return ordered;
}

/** The table's stream, switched on with the table's view type when a table made before streams has none. */
async function enableStream(endpoint: string, tableName: string): Promise<string> {
  const client = localClient(endpoint);
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (Table?.StreamSpecification?.StreamEnabled && Table.LatestStreamArn) return Table.LatestStreamArn;
    const updated = await client.send(
      new UpdateTableCommand({ TableName: tableName, StreamSpecification: { StreamEnabled: true, StreamViewType: STREAM_VIEW_TYPE } }),
    );
    const arn = updated.TableDescription?.LatestStreamArn;
    if (!arn) throw new Error(`DynamoDB Local gave table ${tableName} no stream`);
    return arn;
  } finally {
    client.destroy();
  }
}

async function readCheckpoint(file: string): Promise<Checkpoint | null> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Checkpoint;
    return typeof parsed.streamArn === 'string' && typeof parsed.shards === 'object' && parsed.shards !== null ? parsed : null;
  } catch {
    return null;
  }
}
