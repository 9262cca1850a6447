// Stops the DynamoDB Local started by global-setup.ts, and the pool's DynamoDB Local for streamed tables when the
// tests ran in this process (in band; a worker's goes with the worker: test/support/test-environment.js).
export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __loyaltyStreamPool?: { stop(): Promise<void> } }).__loyaltyStreamPool?.stop();
  await globalThis.__DYNAMODB_LOCAL__?.stop();
}
