// Starts one DynamoDB Local for the whole jest run; test files each use their own table in it.
import { startDynamoDbLocal, type DynamoDbLocal } from '../../infra/local/dynamodb-local';

declare global {
  var __DYNAMODB_LOCAL__: DynamoDbLocal | undefined;
}

export default async function globalSetup(): Promise<void> {
  // Workers inherit this process's environment: the laptop defaults, and quiet logs for tests.
  process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
  await import('../../infra/local/local-env');
  if (process.env.TEST_DYNAMODB_ENDPOINT) return;
  const dynamo = await startDynamoDbLocal();
  globalThis.__DYNAMODB_LOCAL__ = dynamo;
  // Workers inherit the environment of this process.
  process.env.TEST_DYNAMODB_ENDPOINT = dynamo.endpoint;
}
