// Counts DynamoDB calls and consumed capacity per command (benchmarks only: DYNAMODB_STATS=true),
// through an SDK middleware that asks every call for its consumed capacity.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

type Capacity = { CapacityUnits?: number; ReadCapacityUnits?: number; WriteCapacityUnits?: number };

export interface DynamoDbStats {
  calls: Record<string, number>;
  /**
   * Calls DynamoDB refused, by command and reason: `TransactWriteItemsCommand ConditionalCheckFailed`
   * (a cancelled transaction's distinct item reasons, joined by `+`), `UpdateItemCommand
   * ConditionalCheckFailedException`, and so on. One count per refused call.
   */
  refused: Record<string, number>;
  readUnits: number;
  writeUnits: number;
  /**
   * The calls and capacity of background work (the twin's figures consumer, run in the same process as the
   * requests), by its label: kept apart so that a request's counts are its own.
   */
  background: Record<string, { calls: Record<string, number>; readUnits: number; writeUnits: number }>;
}

const backgroundWork = new AsyncLocalStorage<string>();

/** Whether the caller runs as background work (the twin's figures consumer), not as a request's or a job's. */
export function inBackgroundWork(): boolean {
  return backgroundWork.getStore() !== undefined;
}

/** Runs `work` as background work named `label`: its DynamoDB calls count under `background[label]`. */
export function asBackgroundWork<T>(label: string, work: () => T): T {
  return backgroundWork.run(label, work);
}

const WRITES = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'BatchWriteItemCommand', 'TransactWriteItemsCommand']);
const WITH_CAPACITY = new Set([
  ...WRITES,
  'GetItemCommand',
  'QueryCommand',
  'ScanCommand',
  'BatchGetItemCommand',
  'TransactGetItemsCommand',
]);

const stats: DynamoDbStats = { calls: {}, refused: {}, readUnits: 0, writeUnits: 0, background: {} };
/**
 * While paused, calls pass through untouched (no ReturnConsumedCapacity): the bench times latency
 * with counting paused, so the figures are those of a production function.
 */
let counting = true;

export function dynamoDbStats(): DynamoDbStats {
  return {
    calls: { ...stats.calls },
    refused: { ...stats.refused },
    readUnits: stats.readUnits,
    writeUnits: stats.writeUnits,
    background: Object.fromEntries(Object.entries(stats.background).map(([label, work]) => [label, { ...work, calls: { ...work.calls } }])),
  };
}

/** Zeroes the counters and (re)starts counting. */
export function resetDynamoDbStats(): void {
  stats.calls = {};
  stats.refused = {};
  stats.readUnits = 0;
  stats.writeUnits = 0;
  stats.background = {};
  counting = true;
}

/** Stops counting until the next reset; the counters keep their values. */
export function pauseDynamoDbStats(): void {
  counting = false;
}

export function instrumentDynamoDbClient(client: DynamoDBClient): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (!counting) return next(args);
      const command = context.commandName ?? 'unknown';
      const input = args.input as Record<string, unknown>;
      if (WITH_CAPACITY.has(command) && input.ReturnConsumedCapacity === undefined) input.ReturnConsumedCapacity = 'TOTAL';
      const label = backgroundWork.getStore();
      if (label !== undefined) {
        const work = (stats.background[label] ??= { calls: {}, readUnits: 0, writeUnits: 0 });
        work.calls[command] = (work.calls[command] ?? 0) + 1;
        const done = await next(args);
        for (const capacity of [(done.output as { ConsumedCapacity?: Capacity | Capacity[] }).ConsumedCapacity ?? []].flat()) {
          const units = capacity.CapacityUnits ?? 0;
          if (WRITES.has(command)) work.writeUnits += capacity.WriteCapacityUnits ?? units;
          else work.readUnits += capacity.ReadCapacityUnits ?? units;
        }
        return done;
      }
      // A call that fails (a lost transaction, a failed condition) is counted too: it was made and
      // retried; its capacity is not known here.
      stats.calls[command] = (stats.calls[command] ?? 0) + 1;
      let result: Awaited<ReturnType<typeof next>>;
      try {
        result = await next(args);
      } catch (error) {
        const refusal = `${command} ${refusalReason(error)}`;
        stats.refused[refusal] = (stats.refused[refusal] ?? 0) + 1;
        throw error;
      }
      const consumed = (result.output as { ConsumedCapacity?: Capacity | Capacity[] }).ConsumedCapacity;
      for (const capacity of [consumed ?? []].flat()) {
        const units = capacity.CapacityUnits ?? 0;
        if (WRITES.has(command)) stats.writeUnits += capacity.WriteCapacityUnits ?? units;
        else stats.readUnits += capacity.ReadCapacityUnits ?? units;
      }
      return result;
    },
    { step: 'initialize', name: 'dynamoDbStats' },
  );
}

/** Why DynamoDB refused a call: the error's name, or a cancelled transaction's item reasons. */
function refusalReason(error: unknown): string {
  const { name, CancellationReasons } = error as { name?: string; CancellationReasons?: Array<{ Code?: string }> };
  if (name === 'TransactionCanceledException' && CancellationReasons) {
    const codes = new Set(CancellationReasons.map((reason) => reason.Code ?? 'None').filter((code) => code !== 'None'));
    return [...codes].sort().join('+');
  }
  return name ?? 'unknown';
}
