// Records what the code's DynamoDB client sends while a write runs: every call, and for each item a write
// call touches (a transaction's Put, Update, Delete and ConditionCheck, a single PutItem, UpdateItem or
// DeleteItem, a BatchWriteItem's puts and deletes) the item as it stood before the call and after it, read
// around the call by a client of the recorder's own (never counted). A middleware on the very client the
// handlers use (shared/data/client.ts, its raw client hook), so the figures follow the code: a write added
// to a commit (shared/data/commit.ts) shows up here without any change to the bench. Domain events are told
// apart by their item's key (shared/data/items/domain-event.ts).
import { DynamoDBClient, GetItemCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { setRawClientHook } from '../shared/data/client';
import { inBackgroundWork } from '../shared/data/dynamodb-stats';
import { DOMAIN_EVENT_PREFIX } from '../shared/data/items/domain-event';
import { env } from '../shared/runtime/env';
import { itemSize, itemWriteCost, type ItemWriteCost, type StoredItem, type WriteAction } from './write-units';

export interface RecordedItem extends ItemWriteCost {
  /** `pk` and `sk`, as stored. */
  key: { pk: string; sk: string };
  /** A domain event recorded with its change (the put of its item). */
  event: boolean;
  /** The item's size after the write (an event's bytes). */
  bytesAfter: number;
  /** An event item's event type. */
  eventType?: string;
}

export interface RecordedCall {
  command: string;
  /** Refused by DynamoDB (a condition, a conflict): priced at nothing, its items left out. */
  refused: boolean;
  items: RecordedItem[];
}

const WRITE_COMMANDS = new Set([
  'TransactWriteItemsCommand',
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'BatchWriteItemCommand',
]);

interface Touched {
  action: WriteAction;
  key: StoredItem;
  transactional: boolean;
}

type Input = Record<string, unknown>;
const keyOf = (item: StoredItem): StoredItem => ({ pk: item.pk!, sk: item.sk! });

/** The items a write call touches, from its marshalled input. */
export function touchedItems(command: string, input: Input): Touched[] {
  switch (command) {
    case 'TransactWriteItemsCommand':
      return (input.TransactItems as Array<Record<string, { Item?: StoredItem; Key?: StoredItem }>>).map((request) => {
        const [action, body] = Object.entries(request).find(([, value]) => value !== undefined) as [
          WriteAction,
          { Item?: StoredItem; Key?: StoredItem },
        ];
        return { action, key: body.Item ? keyOf(body.Item) : body.Key!, transactional: true };
      });
    case 'PutItemCommand':
      return [{ action: 'Put', key: keyOf(input.Item as StoredItem), transactional: false }];
    case 'UpdateItemCommand':
      return [{ action: 'Update', key: input.Key as StoredItem, transactional: false }];
    case 'DeleteItemCommand':
      return [{ action: 'Delete', key: input.Key as StoredItem, transactional: false }];
    case 'BatchWriteItemCommand':
      return Object.values(
        input.RequestItems as Record<string, Array<{ PutRequest?: { Item: StoredItem }; DeleteRequest?: { Key: StoredItem } }>>,
      )
        .flat()
        .map((request) =>
          request.PutRequest
            ? { action: 'Put' as const, key: keyOf(request.PutRequest.Item), transactional: false }
            : { action: 'Delete' as const, key: request.DeleteRequest!.Key, transactional: false },
        );
    default:
      return [];
  }
}

const text = (value: AttributeValue | undefined) => value?.S ?? '';

export interface WriteRecorder {
  /** Runs `work` and answers the calls the code made meanwhile, with the items their writes touched. */
  record<T>(work: () => Promise<T>): Promise<{ result: T; calls: RecordedCall[] }>;
  /** Takes the middleware off the code's client. */
  stop(): void;
}

/**
 * Puts the recorder on the code's DynamoDB client (from its next call on); between `record` windows it
 * passes every call through untouched. The table and endpoint are the code's own (TABLE_NAME,
 * DYNAMODB_ENDPOINT), read when a window opens.
 */
export function writeRecorder(): WriteRecorder {
  let calls: RecordedCall[] | null = null;
  let reader: DynamoDBClient | null = null;
  let readerFor = '';
  const read = async (key: StoredItem): Promise<StoredItem | null> => {
    const settings = env();
    const { Item } = await reader!.send(new GetItemCommand({ TableName: settings.TABLE_NAME, Key: key, ConsistentRead: true }));
    return Item ?? null;
  };
  setRawClientHook((raw) => {
    raw.middlewareStack.add(
      (next, context) => async (args) => {
        const recording = calls;
        const command = context.commandName ?? 'unknown';
        // The figures consumer counting earlier events is not the path's work, whenever it runs.
        if (!recording || inBackgroundWork()) return next(args);
        const call: RecordedCall = { command, refused: false, items: [] };
        recording.push(call);
        if (!WRITE_COMMANDS.has(command)) return next(args);
        const touched = touchedItems(command, args.input as Input);
        const before = await Promise.all(touched.map((item) => read(item.key)));
        let result: Awaited<ReturnType<typeof next>>;
        try {
          result = await next(args);
        } catch (error) {
          call.refused = true;
          throw error;
        }
        const after = await Promise.all(touched.map((item) => (item.action === 'ConditionCheck' ? Promise.resolve(null) : read(item.key))));
        call.items = touched.map((item, at) => {
          const stored = item.action === 'ConditionCheck' ? before[at]! : after[at]!;
          return {
            key: { pk: text(item.key.pk), sk: text(item.key.sk) },
            // An event recorded with its change is a put of an event item; a delete of one (an erasure's) is the change's own work.
            event: item.action === 'Put' && text(item.key.pk).startsWith(DOMAIN_EVENT_PREFIX),
            bytesAfter: stored ? itemSize(stored) : 0,
            ...(stored?.event?.M?.type?.S ? { eventType: stored.event.M.type.S } : {}),
            ...itemWriteCost(item.action, before[at]!, item.action === 'ConditionCheck' ? before[at]! : after[at]!, item.transactional),
          };
        });
        return result;
      },
      // After the document client has marshalled the input, below nothing that retries: one record per send.
      { step: 'build', name: 'writeRecorder' },
    );
  });
  return {
    async record(work) {
      const settings = env();
      const endpoint = settings.DYNAMODB_ENDPOINT ?? '';
      if (!reader || readerFor !== endpoint) {
        reader?.destroy();
        reader = new DynamoDBClient({
          region: settings.AWS_REGION,
          ...(endpoint ? { endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
        });
        readerFor = endpoint;
      }
      const recorded: RecordedCall[] = [];
      calls = recorded;
      try {
        const result = await work();
        return { result, calls: recorded };
      } finally {
        calls = null;
      }
    },
    stop() {
      setRawClientHook(undefined);
      reader?.destroy();
      reader = null;
    },
  };
}
