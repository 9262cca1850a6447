// The cloud side of "a key changed -> drop cached authorizer answers": API Gateway's
// FlushStageAuthorizersCache on the deployed stage. Called by the stream-fed flusher function;
// the operator CLI flushes the same way after a revoke.
import { APIGatewayClient, FlushStageAuthorizersCacheCommand } from '@aws-sdk/client-api-gateway';
import { env } from '../runtime/env';

let client: APIGatewayClient | undefined;

/** Flushes the authorizer cache of the stage named by REST_API_ID and API_STAGE_NAME; throws if it cannot. */
export async function flushStageAuthorizerCache(): Promise<{ restApiId: string; stageName: string }> {
  const { REST_API_ID: restApiId, API_STAGE_NAME: stageName } = env();
  if (!restApiId || !stageName) throw new Error('REST_API_ID and API_STAGE_NAME must name the stage whose authorizer cache to flush');
  client ??= new APIGatewayClient({ region: env().AWS_REGION });
  await client.send(new FlushStageAuthorizersCacheCommand({ restApiId, stageName }));
  return { restApiId, stageName };
}
