// The one shape of a queue consumer (shared/observability/queue-consumer.ts): Powertools' batch processor with
// partial batch responses, each failed record at ERROR, and the figures consumer's whole-batch work on it: the
// batch counted once, an unreadable message acknowledged, a failed count reported for every event's record.
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import type { CommittedEvent } from '../../shared/domain/events';
import { queueConsumer, wholeBatch } from '../../shared/observability/queue-consumer';
import { invocationRemainingMs } from '../../shared/runtime/invocation';
import { captured, fakeContext } from '../support/lambda-fakes';

const record = (messageId: string, body: string): SQSRecord =>
  ({ messageId, receiptHandle: messageId, body, attributes: { ApproximateReceiveCount: '1' } }) as unknown as SQSRecord;
const batch = (...records: SQSRecord[]): SQSEvent => ({ Records: records });

describe('a queue consumer', () => {
  it('reports only the records that failed, and runs within the invocation’s deadline', async () => {
    const deadlines: Array<number | undefined> = [];
    const consumer = queueConsumer({
      failure: 'Not done',
      work: async (message) => {
        deadlines.push(invocationRemainingMs());
        if (message.body === 'fails') throw new Error('busy');
      },
    });

    const response = await consumer(batch(record('a', 'ok'), record('b', 'fails'), record('c', 'ok')), fakeContext(30_000));

    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'b' }] });
    expect(deadlines.every((remaining) => remaining !== undefined && remaining > 25_000 && remaining <= 30_000)).toBe(true);
  });

  it('throws when every record failed, unless told to report them all', async () => {
    const failing = async () => {
      throw new Error('down');
    };
    const throwing = queueConsumer({ failure: 'Not done', work: failing });
    const reporting = queueConsumer({ failure: 'Not done', work: failing, throwOnFullBatchFailure: false });

    await expect(throwing(batch(record('a', 'x')), fakeContext())).rejects.toThrow(/All records failed/);
    expect(await reporting(batch(record('a', 'x'), record('b', 'y')), fakeContext())).toEqual({
      batchItemFailures: [{ itemIdentifier: 'a' }, { itemIdentifier: 'b' }],
    });
  });

  it('runs whole-batch work once on the parts read, acknowledging a dropped record, and fails every part with it', async () => {
    const counted: string[][] = [];
    let fail = false;
    const consumer = queueConsumer({
      failure: 'Not counted',
      work: {
        perBatch: (records) =>
          wholeBatch(
            records.length,
            (message) => (message.body === 'unreadable' ? undefined : message.body),
            async (parts) => {
              counted.push(parts);
              if (fail) throw new Error('transaction cancelled');
            },
          ),
      },
      throwOnFullBatchFailure: false,
    });
    const event = batch(record('a', 'e1'), record('b', 'unreadable'), record('c', 'e2'));

    expect(await consumer(event, fakeContext())).toEqual({ batchItemFailures: [] });
    fail = true;
    expect(await consumer(event, fakeContext())).toEqual({ batchItemFailures: [{ itemIdentifier: 'a' }, { itemIdentifier: 'c' }] });
    expect(counted).toEqual([
      ['e1', 'e2'],
      ['e1', 'e2'],
    ]);
  });
});

describe('the figures consumer', () => {
  const event = (id: string) =>
    JSON.stringify({ id, 'detail-type': 'points.adjusted', detail: { id, type: 'points.adjusted', shop_id: 's' } });

  it('counts its batch in one call and hands every event back when the count fails, logged at ERROR', async () => {
    const calls: CommittedEvent[][] = [];
    const { result, logs } = await captured(async () => {
      jest.doMock('../../shared/figures/program-figures', () => ({
        eventOfMessage: (body: string) => (body.startsWith('{') ? (JSON.parse(body) as { detail: CommittedEvent }).detail : 'not JSON'),
        countDeliveredEvents: async (events: CommittedEvent[]) => {
          calls.push(events);
          if (calls.length === 2) throw new Error('TransactionCanceledException');
          return { counted: events.length };
        },
      }));
      const { handler } = await import('../../functions/figures/count-program-figures');
      const records = batch(record('m1', event('e1')), record('m2', 'garbage'), record('m3', event('e2')));
      return [await handler(records, fakeContext(30_000)), await handler(records, fakeContext(30_000))];
    });

    expect(calls.map((events) => events.map((committed) => committed.id))).toEqual([
      ['e1', 'e2'],
      ['e1', 'e2'],
    ]);
    expect(result).toEqual([{ batchItemFailures: [] }, { batchItemFailures: [{ itemIdentifier: 'm1' }, { itemIdentifier: 'm3' }] }]);
    expect(logs.filter((line) => line.level === 'ERROR').map((line) => [line.message, line.messageId])).toEqual([
      ['Figures not counted: the batch is handed again', 'm1'],
      ['Figures not counted: the batch is handed again', 'm3'],
    ]);
    expect(logs.filter((line) => line.message === 'Figures consumer: message dropped')).toHaveLength(2);
  });
});
