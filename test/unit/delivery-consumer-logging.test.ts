// The webhook delivery queue consumer's log: a message that could not be processed (it goes back to the queue) is an
// ERROR with its stack; the messages processed beside it log nothing at ERROR.
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { setEnvironment } from '../support/environment';

type LogLine = Record<string, unknown> & { level?: string; message?: string };

const context = {
  awsRequestId: 'req-1',
  functionName: 'processWebhookDeliveries',
  getRemainingTimeInMillis: () => 60_000,
} as unknown as Context;

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
  const chunks: string[] = [];
  const capture = (chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  };
  const restoreEnvironment = setEnvironment({ POWERTOOLS_LOG_LEVEL: 'INFO' });
  const out = jest.spyOn(process.stdout, 'write').mockImplementation(capture);
  const err = jest.spyOn(process.stderr, 'write').mockImplementation(capture);
  let result: unknown;
  try {
    await jest.isolateModulesAsync(async () => {
      jest.doMock('../../shared/webhooks/process-queued-delivery', () => ({
        processQueuedDelivery: async (body: string) => {
          if (body === 'fails') throw new Error('ProvisionedThroughputExceededException: table busy');
          return { topic: 'orders/paid', outcome: 'applied' };
        },
      }));
      const { handler } = await import('../../functions/webhooks/process-deliveries');
      const event: SQSEvent = { Records: [record('m-ok', 'works'), record('m-failed', 'fails')] };
      result = await handler(event, context);
    });
  } finally {
    out.mockRestore();
    err.mockRestore();
    restoreEnvironment();
  }
  const lines = chunks
    .join('')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);

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
