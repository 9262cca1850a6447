// The deployed stage's authorizer cache, which the CLI flushes right after `keys revoke` so the key is
// refused from the next request on without waiting for the table stream's flusher (which flushes too).
import { type APIGatewayClient, FlushStageAuthorizersCacheCommand } from '@aws-sdk/client-api-gateway';

export interface StageAuthorizerCache {
  /** e.g. `stage prod of API abc123`. */
  description: string;
  flush(): Promise<void>;
}

export function stageAuthorizerCache(client: APIGatewayClient, restApiId: string, stageName: string): StageAuthorizerCache {
  return {
    description: `stage ${stageName} of API ${restApiId}`,
    flush: async () => {
      await client.send(new FlushStageAuthorizersCacheCommand({ restApiId, stageName }));
    },
  };
}
