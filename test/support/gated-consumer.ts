// A queue consumer for tests of the twin's queues: each record waits at a gate the test opens, the consumer
// counts how many records it works at once, and a message `{ "fail": true }` is reported as failed.
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';

let open: () => void = () => undefined;
let gate: Promise<void> = Promise.resolve();
let active = 0;

export const consumerState = { consumed: [] as unknown[], receives: 0, maxActive: 0 };

/** From now on each record waits until `openGate()`. */
export function closeGate(): void {
  gate = new Promise<void>((resolve) => {
    open = resolve;
  });
}

export function openGate(): void {
  open();
  gate = Promise.resolve();
}

/** Back to an open gate and no records seen. */
export function resetConsumer(): void {
  openGate();
  active = 0;
  consumerState.consumed = [];
  consumerState.receives = 0;
  consumerState.maxActive = 0;
}

export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    active += 1;
    consumerState.receives += 1;
    consumerState.maxActive = Math.max(consumerState.maxActive, active);
    try {
      await gate;
      const message = JSON.parse(record.body) as { fail?: boolean };
      if (message.fail) failures.push({ itemIdentifier: record.messageId });
      else consumerState.consumed.push(message);
    } finally {
      active -= 1;
    }
  }
  return { batchItemFailures: failures };
}
