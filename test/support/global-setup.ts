// Starts one DynamoDB Local for the whole jest run; test files each use their own table in it.
import { startDynamoDbLocal, type DynamoDbLocal } from '../../infra/local/dynamodb-local';

declare global {
  var __DYNAMODB_LOCAL__: DynamoDbLocal | undefined;
}

export default async function globalSetup(): Promise<void> {
  // Local Node is 20 while Lambda runs 22+: silence the SDK's upgrade notice in test output.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  if (process.env.TEST_DYNAMODB_ENDPOINT) return;
  const dynamo = await startDynamoDbLocal();
  globalThis.__DYNAMODB_LOCAL__ = dynamo;
  // Workers inherit the environment of this process.
  process.env.TEST_DYNAMODB_ENDPOINT = dynamo.endpoint;
}
