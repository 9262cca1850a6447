// The webhook delivery queue consumer's log: a message that could not be processed (it goes back to the queue) is an
// ERROR with its stack; the messages processed beside it log nothing at ERROR.
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { captured, fakeContext } from '../support/lambda-fakes';

const context = fakeContext(60_000);

const record = (messageId: string, body: string): SQSRecord =>
  ({
    messageId,
    receiptHandle: messageId,
    body,
    attributes: { ApproximateReceiveCount: '2' },
    messageAttributes: {},
    eventSource: 'aws:sqs',
  }) as unknown as SQSRecord;

it('logs a message it could not process at ERROR, and reports only that one as failed', async () => {
  const { result, logs: lines } = await captured(async () => {
    jest.doMock('../../shared/webhooks/process-queued-delivery', () => ({
      processQueuedDelivery: async (body: string) => {
        if (body === 'fails') throw new Error('ProvisionedThroughputExceededException: table busy');
        return { topic: 'orders/paid', outcome: 'applied' };
      },
    }));
    const { handler } = await import('../../functions/webhooks/process-webhook-deliveries');
    const event: SQSEvent = { Records: [record('m-ok', 'works'), record('m-failed', 'fails')] };
    return handler(event, context);
  });

  expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-failed' }] });
  expect(lines.filter((line) => line.level === 'ERROR')).toEqual([
    expect.objectContaining({
      message: 'Webhook delivery not processed',
      messageId: 'm-failed',
      receiveCount: 2,
      error: expect.objectContaining({ message: 'ProvisionedThroughputExceededException: table busy', stack: expect.any(String) }),
    }),
  ]);
});
