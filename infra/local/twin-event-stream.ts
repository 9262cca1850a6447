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
  // Idle, it looks four times a second, as Lambda polls a DynamoDB stream's shard; `caughtUp()` (GET /_events,
  // a test's wait) wakes it at once.
  const idleMs = options.idleMs ?? 250;
  const retryMs = options.retryMs ?? 250;
  const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
  const streams = new DynamoDBStreamsClient({ endpoint: options.endpoint, region: 'us-east-1', credentials });
  const streamArn = await enableStream(options.endpoint, options.tableName);
  const saved = options.checkpointFile ? await readCheckpoint(options.checkpointFile) : null;
  // Another stream (the table made again) starts over from its oldest record.
  const checkpoint: Checkpoint = saved && saved.streamArn === streamArn ? saved : { streamArn, shards: {} };
  const shards = new Map<string, ShardState>();
  let describedAt = 0;
  let stopped = false;
  let passes = 0;
  let batches = 0;
  let refusedBatches = 0;
  let waiters: Array<{ after: number; resolve: () => void }> = [];
  let wake: (() => void) | undefined;

  const describe = async () => {
    let start: string | undefined;
    do {
      const { StreamDescription } = await streams.send(
        new DescribeStreamCommand({ StreamArn: streamArn, ...(start ? { ExclusiveStartShardId: start } : {}) }),
      );
      for (const shard of StreamDescription?.Shards ?? []) {
        if (!shards.has(shard.ShardId!)) shards.set(shard.ShardId!, { shard, done: false });
        else shards.get(shard.ShardId!)!.shard = shard;
      }
      start = StreamDescription?.LastEvaluatedShardId;
    } while (start);
    describedAt = Date.now();
  };

  const saveCheckpoint = async () => {
    if (!options.checkpointFile) return;
    const temporary = `${options.checkpointFile}.tmp`;
    await writeFile(temporary, JSON.stringify(checkpoint), 'utf8');
    await rename(temporary, options.checkpointFile);
  };

  const iteratorOf = async (state: ShardState): Promise<string | undefined> => {
    const after = checkpoint.shards[state.shard.ShardId!];
    const { ShardIterator } = await streams.send(
      new GetShardIteratorCommand({
        StreamArn: streamArn,
        ShardId: state.shard.ShardId!,
        ...(after ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: after } : { ShardIteratorType: 'TRIM_HORIZON' }),
      }),
    );
    return ShardIterator;
  };

  /** Reads every shard to its current end; answers whether all was handled (nothing refused). */
  const pass = async (): Promise<{ complete: boolean; refused: boolean }> => {
    if (Date.now() - describedAt > DESCRIBE_EVERY_MS) await describe();
    let complete = true;
    for (const state of inLineage(shards)) {
      if (state.done) continue;
      const parent = state.shard.ParentShardId ? shards.get(state.shard.ParentShardId) : undefined;
      if (parent && !parent.done) {
        complete = false;
        continue;
      }
      for (;;) {
        state.iterator ??= await iteratorOf(state);
        if (!state.iterator) {
          state.done = true;
          break;
        }
        let answer;
        try {
          answer = await streams.send(new GetRecordsCommand({ ShardIterator: state.iterator, Limit: RECORDS_PER_CALL }));
        } catch {
          // An expired or trimmed iterator: read again from the checkpoint on the next pass.
          state.iterator = undefined;
          return { complete: false, refused: false };
        }
        const records = answer.Records ?? [];
        if (records.length > 0) {
          batches += 1;
          const firstUndelivered = await options.deliver(records);
          const undeliveredAt =
            firstUndelivered === null ? records.length : records.findIndex((r) => r.dynamodb?.SequenceNumber === firstUndelivered);
          const handled = records.slice(0, Math.max(undeliveredAt, 0));
          const last = handled.at(-1)?.dynamodb?.SequenceNumber;
          if (last) {
            checkpoint.shards[state.shard.ShardId!] = last;
            await saveCheckpoint();
          }
          if (firstUndelivered !== null) {
            refusedBatches += 1;
            state.iterator = undefined;
            return { complete: false, refused: true };
          }
        }
        state.iterator = answer.NextShardIterator;
        if (!state.iterator) {
          state.done = true;
          // Its children may be new: read the shards again on the next pass.
          describedAt = 0;
          break;
        }
        if (records.length === 0) break;
      }
    }
    return { complete, refused: false };
  };

  const settle = (upTo: number) => {
    const waiting = waiters;
    waiters = [];
    for (const waiter of waiting) {
      if (waiter.after < upTo || options.busRefusing()) waiter.resolve();
      else waiters.push(waiter);
    }
  };

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
    });

  const loop = (async () => {
    while (!stopped) {
      passes += 1;
      const thisPass = passes;
      let outcome: { complete: boolean; refused: boolean };
      try {
        outcome = await pass();
      } catch (error) {
        if (stopped) break;
        console.error(JSON.stringify({ level: 'ERROR', message: 'Event stream reader failed a pass', error: String(error) }));
        outcome = { complete: false, refused: false };
      }
      if (outcome.complete) settle(thisPass);
      else settle(0);
      if (stopped) break;
      await sleep(outcome.refused ? retryMs : outcome.complete && waiters.length === 0 ? idleMs : 0);
    }
  })();

  return {
    caughtUp() {
      if (stopped || options.busRefusing()) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, options.caughtUpTimeoutMs ?? 10_000);
        // A pass that starts after this call has seen every record committed before it.
        waiters.push({
          after: passes,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
        wake?.();
      });
    },
    stats: () => ({ batches, refusedBatches }),
    async stop() {
      stopped = true;
      wake?.();
      await loop;
      for (const waiter of waiters) waiter.resolve();
      waiters = [];
      streams.destroy();
    },
  };
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
