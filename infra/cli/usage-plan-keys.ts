// The API Gateway side of API keys: a usage-plan key per loyalty key, so the usage plan's per-key
// throttles apply. Behind an interface so the CLI can run against the twin (no API Gateway) and tests.
import {
  APIGatewayClient,
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  UpdateApiKeyCommand,
} from '@aws-sdk/client-api-gateway';

export interface UsagePlanKeys {
  /** Creates an enabled API Gateway key with this value and attaches it to the usage plan. */
  createAndAttach(name: string, value: string): Promise<{ id: string }>;
  /** Disables an API Gateway key (revocation). */
  disable(keyId: string): Promise<void>;
}

export function apiGatewayUsagePlanKeys(usagePlanId: string, client = new APIGatewayClient({})): UsagePlanKeys {
  return {
    createAndAttach: async (name, value) => {
      const created = await client.send(new CreateApiKeyCommand({ name, value, enabled: true, description: 'Loyalty API key (usage plan identity)' }));
      if (!created.id) throw new Error('API Gateway did not return the new key id');
      await client.send(new CreateUsagePlanKeyCommand({ usagePlanId, keyId: created.id, keyType: 'API_KEY' }));
      return { id: created.id };
    },
    disable: async (keyId) => {
      await client.send(new UpdateApiKeyCommand({ apiKey: keyId, patchOperations: [{ op: 'replace', path: '/enabled', value: 'false' }] }));
    },
  };
}
