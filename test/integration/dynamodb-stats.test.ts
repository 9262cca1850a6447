// The bench's DynamoDB call and capacity counter (DYNAMODB_STATS=true), against DynamoDB Local.
import { documentClient, resetDocumentClient } from '../../shared/data/client';
import { createCustomer, getCustomer } from '../../shared/data/customer-repository';
import { dynamoDbStats, pauseDynamoDbStats, resetDynamoDbStats } from '../../shared/data/dynamodb-stats';
import { customerRecord } from '../fixtures/customer-record';
import { createTestTable } from '../support/test-table';

let table: Awaited<ReturnType<typeof createTestTable>>;
/** ReturnConsumedCapacity of every request as serialized, seen by a middleware after the counter's. */
const requested: Array<string | undefined> = [];

beforeAll(async () => {
  table = await createTestTable({ environment: { DYNAMODB_STATS: 'true' } });
  documentClient().middlewareStack.add(
    (next) => async (args) => {
      requested.push((args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity);
      return next(args);
    },
    { step: 'serialize', priority: 'high', name: 'capturesReturnConsumedCapacity' },
  );
  await createCustomer(customerRecord({ shop_id: 'stats', platform_customer_id: '1' }));
});
afterAll(async () => {
  resetDocumentClient();
  resetDynamoDbStats();
  await table.drop();
});
beforeEach(() => {
  requested.length = 0;
});

describe('DynamoDB stats (bench only)', () => {
  it('counts each call by command with the read and write units DynamoDB reports', async () => {
    resetDynamoDbStats();

    await getCustomer('stats', '1');
    await getCustomer('stats', '1', true);
    await createCustomer(customerRecord({ shop_id: 'stats', platform_customer_id: '2' }));

    const counted = dynamoDbStats();
    expect(counted.calls).toEqual({ GetItemCommand: 2, TransactWriteItemsCommand: 1 });
    // A small item: 0.5 RCU eventually consistent + 1 RCU strongly consistent. Enrolment writes 3 items
    // and their index entries in one transaction, 2 WCU per unit: 16 as DynamoDB reports it (2 of them the
    // profile's entry in the member list's tier-and-activity index), and 1 more for the delete of the
    // customer's erasure tombstone (absent here), since an enrolment anew clears it.
    expect(counted.readUnits).toBe(1.5);
    expect(counted.writeUnits).toBe(17);
    expect(requested).toEqual(['TOTAL', 'TOTAL', 'TOTAL']);
  });

  it('counts a call DynamoDB refuses, such as a transaction whose condition fails', async () => {
    resetDynamoDbStats();

    // The customer exists, so enrolling it again fails the transaction's condition.
    expect(await createCustomer(customerRecord({ shop_id: 'stats', platform_customer_id: '1' }))).toBe('customer_exists');

    expect(dynamoDbStats().calls).toEqual({ TransactWriteItemsCommand: 1 });
    // The profile's and the referral code's conditions failed: one refused call.
    expect(dynamoDbStats().refused).toEqual({ 'TransactWriteItemsCommand ConditionalCheckFailed': 1 });
  });

  it('while paused, neither counts nor asks DynamoDB for consumed capacity; a reset starts again from zero', async () => {
    resetDynamoDbStats();
    await getCustomer('stats', '1');
    pauseDynamoDbStats();

    await getCustomer('stats', '1');
    await getCustomer('stats', '1');

    expect(dynamoDbStats()).toEqual({ calls: { GetItemCommand: 1 }, refused: {}, readUnits: 0.5, writeUnits: 0, background: {} });
    expect(requested).toEqual(['TOTAL', undefined, undefined]);

    resetDynamoDbStats();
    await getCustomer('stats', '1');
    expect(dynamoDbStats()).toEqual({ calls: { GetItemCommand: 1 }, refused: {}, readUnits: 0.5, writeUnits: 0, background: {} });
  });
});
