// Where GET /v1/customers/{id} spends its time: the authorizer and the handler invoked directly in
// the bench process, one request at a time, against the twin's DynamoDB, next to the document
// client's own GetItem of the same item. What remains of the HTTP figure is the hop from the load
// tool through the twin's gateway, which API Gateway replaces in the cloud.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { join } from 'node:path';
import { AUTHORIZER, ROUTES } from '../shared/runtime/entry-points';
import { gatewayEvents, lambdaContext, type AuthorizerHandler, type ProxyHandler } from '../infra/local/gateway';
import { PROJECT_ROOT } from '../infra/local/twin';
import { resetEnv } from '../shared/runtime/env';
import { documentClient, resetDocumentClient, tableName } from '../shared/data/client';
import { pauseDynamoDbStats } from '../shared/data/dynamodb-stats';
import { keys } from '../shared/data/keys';
import { median } from './statistics';

export interface InProcessFigures {
  /** Median milliseconds per call, one call at a time. */
  getItem: number;
  authorizer: number;
  handler: number;
}

const WARM_UP = 300;
const CALLS = 1_000;
const ROUNDS = 3;

async function timeSequential(operation: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < CALLS; i += 1) await operation();
  return (performance.now() - t0) / CALLS;
}

/** The bench process's TABLE_NAME and DYNAMODB_ENDPOINT must already point at the twin's table. */
export async function decomposeGetCustomer({
  apiKey,
  shopId,
  customerId,
}: {
  apiKey: string;
  shopId: string;
  customerId: string;
}): Promise<InProcessFigures> {
  resetEnv();
  resetDocumentClient();
  pauseDynamoDbStats();
  const route = ROUTES.find((candidate) => candidate.name === 'getCustomer')!;
  const authorizer = ((await import(join(PROJECT_ROOT, AUTHORIZER.handler))) as { handler: AuthorizerHandler }).handler;
  const handler = ((await import(join(PROJECT_ROOT, route.handler))) as { handler: ProxyHandler }).handler;

  // The very events and context the twin's gateway hands the functions.
  const events = gatewayEvents({
    route,
    method: route.method,
    url: new URL(`/v1/customers/${customerId}`, 'http://bench'),
    rawHeaders: ['Authorization', apiKey],
    pathParameters: { identifier: customerId },
    sourceIp: '127.0.0.1',
    requestId: 'bench',
  });
  const event = events.proxy(null, await authorizer(events.authorizer));

  const operations = {
    getItem: () => documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.customer(shopId, customerId) })),
    authorizer: async () => {
      const result = await authorizer(events.authorizer);
      if (!result.policyDocument.Statement.every((statement) => statement.Effect === 'Allow')) throw new Error('bench key refused');
    },
    handler: async () => {
      const response = await handler(event, lambdaContext(route.name, 'bench'));
      if (response.statusCode !== 200) throw new Error(`GET customer answered ${response.statusCode}: ${response.body}`);
    },
  };
  const samples: Record<keyof typeof operations, number[]> = { getItem: [], authorizer: [], handler: [] };
  for (const operation of Object.values(operations)) for (let i = 0; i < WARM_UP; i += 1) await operation();
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [name, operation] of Object.entries(operations) as Array<[keyof typeof operations, () => Promise<unknown>]>)
      samples[name].push(await timeSequential(operation));
  }
  return { getItem: median(samples.getItem), authorizer: median(samples.authorizer), handler: median(samples.handler) };
}
