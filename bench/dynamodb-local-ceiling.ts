// What the DynamoDB Local in use absorbs on this machine, whatever the client: single conditional puts,
// 25-item BatchWriteItems and 5-item TransactWriteItems, each at 32 in flight, in items per second. The
// import's rows per second are read against it: a new member is one 5-item transaction plus its e-mail
// postings in batches (docs/performance.md#import).
import { BatchWriteItemCommand, PutItemCommand, TransactWriteItemsCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ensureTable } from '../infra/local/dynamodb-local';
import { gramsOf } from '../shared/data/items/email-gram';

export interface CeilingFigures {
  putItemsPerSecond: number;
  batchedItemsPerSecond: number;
  transactionalItemsPerSecond: number;
  /** Postings of the bench's addresses (`member100001@example.com`): one item each. */
  postingsPerMember: number;
  /** 1 / (5 transactional items + the postings batched), in members per second. */
  newMembersPerSecond: number;
}

const IN_FLIGHT = 32;
const TABLE = 'bench-ceiling';

export async function dynamoDbLocalCeiling(client: DynamoDBClient): Promise<CeilingFigures> {
  await ensureTable(client, TABLE, { stream: false });
  const item = (pk: string, sk: string) => ({ pk: { S: pk }, sk: { S: sk }, v: { S: 'x'.repeat(100) } });
  const rate = async (calls: number, itemsPerCall: number, call: (i: number) => Promise<unknown>): Promise<number> => {
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        for (let i = next++; i < calls; i = next++) await call(i);
      }),
    );
    return (calls * itemsPerCall) / ((performance.now() - started) / 1000);
  };
  const putItemsPerSecond = await rate(2000, 1, (i) =>
    client.send(
      new PutItemCommand({ TableName: TABLE, Item: item(`P#${i % 50}`, `p${i}`), ConditionExpression: 'attribute_not_exists(pk)' }),
    ),
  );
  const batchedItemsPerSecond = await rate(400, 25, (i) =>
    client.send(
      new BatchWriteItemCommand({
        RequestItems: {
          [TABLE]: Array.from({ length: 25 }, (_, j) => ({ PutRequest: { Item: item(`G#${(i * 25 + j) % 300}`, `b${i}-${j}`) } })),
        },
      }),
    ),
  );
  const transactionalItemsPerSecond = await rate(1000, 5, (i) =>
    client.send(
      new TransactWriteItemsCommand({
        TransactItems: Array.from({ length: 5 }, (_, j) => ({
          Put: { TableName: TABLE, Item: item(`C#${i}`, `t${j}`), ConditionExpression: 'attribute_not_exists(pk)' },
        })),
      }),
    ),
  );
  const postingsPerMember = gramsOf('member100001@example.com').length;
  const newMembersPerSecond = 1 / (5 / transactionalItemsPerSecond + postingsPerMember / batchedItemsPerSecond);
  return { putItemsPerSecond, batchedItemsPerSecond, transactionalItemsPerSecond, postingsPerMember, newMembersPerSecond };
}
