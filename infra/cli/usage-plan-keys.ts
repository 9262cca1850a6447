// The API Gateway side of API keys: one usage-plan key per loyalty key, so the usage plan's per-key
// throttles apply. Behind an interface so the CLI runs against the twin (no API Gateway) and in tests.
import { APIGatewayClient, CreateApiKeyCommand, CreateUsagePlanKeyCommand, UpdateApiKeyCommand } from '@aws-sdk/client-api-gateway';

export interface UsagePlanKeys {
  /** Creates an enabled API Gateway key with exactly this value. */
  create(name: string, value: string): Promise<{ id: string }>;
  /** Attaches an API Gateway key to a usage plan. */
  attach(usagePlanId: string, keyId: string): Promise<void>;
  /** Disables an API Gateway key, by id: the usage plan then refuses it even if the authorizer did not. */
  disable(keyId: string): Promise<void>;
}

/** The deployed stack's usage plan and the way to manage its keys. */
export interface UsagePlan {
  id: string;
  keys: UsagePlanKeys;
}

export function apiGatewayUsagePlanKeys(client: APIGatewayClient): UsagePlanKeys {
  return {
    create: async (name, value) => {
      const created = await client.send(
        new CreateApiKeyCommand({
          name,
          value,
          enabled: true,
          description: 'Usage-plan identity of a loyalty API key (not the key itself)',
        }),
      );
      if (!created.id) throw new Error(`API Gateway did not return an id for the new key '${name}'`);
      return { id: created.id };
    },
    attach: async (usagePlanId, keyId) => {
      await client.send(new CreateUsagePlanKeyCommand({ usagePlanId, keyId, keyType: 'API_KEY' }));
    },
    disable: async (keyId) => {
      await client.send(new UpdateApiKeyCommand({ apiKey: keyId, patchOperations: [{ op: 'replace', path: '/enabled', value: 'false' }] }));
    },
  };
}
