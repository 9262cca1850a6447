// The deployed stage's authorizer cache, which the CLI flushes right after `keys revoke` so the key is
// refused from the next request on without waiting for the table stream's flusher (which flushes too);
// against the twin's DynamoDB, the cache of each twin running on that table.
import { type APIGatewayClient, FlushStageAuthorizersCacheCommand } from '@aws-sdk/client-api-gateway';
import { runningTwins } from '../local/twin-registry';

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

/**
 * The twins running on this machine against this DynamoDB endpoint and table (infra/local/twin-registry.ts):
 * each gateway's cache is flushed through its `POST /_authorizer-cache/flush`; null when none runs.
 */
export function twinAuthorizerCaches(dynamodbEndpoint: string, tableName: string): StageAuthorizerCache | null {
  const twins = runningTwins(dynamodbEndpoint, tableName);
  if (twins.length === 0) return null;
  return {
    description: twins.map((twin) => `the twin at ${twin.url}`).join(', '),
    flush: async () => {
      for (const twin of twins) {
        let response: Response;
        try {
          response = await fetch(`${twin.url}/_authorizer-cache/flush`, { method: 'POST', signal: AbortSignal.timeout(5000) });
        } catch (error) {
          // Stopped since it was listed (nothing listens): no cache left to flush.
          if ((error as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED') continue;
          throw new Error(`the twin at ${twin.url} did not answer the flush: ${(error as Error).message}`);
        }
        if (!response.ok) throw new Error(`the twin at ${twin.url} answered HTTP ${response.status} to the flush`);
      }
    },
  };
}
