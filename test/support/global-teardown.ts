// Stops the DynamoDB Local started by global-setup.ts.
export default async function globalTeardown(): Promise<void> {
  await globalThis.__DYNAMODB_LOCAL__?.stop();
}
