// The API Gateway side of API keys: one usage-plan key per loyalty key, so the usage plan's per-key
// throttles apply. Behind an interface so the CLI runs against the twin (no API Gateway) and in tests.
// The port itself and the sync of a configuration's keys are shared with the twin (shared/shops/usage-plan-keys.ts).
import { APIGatewayClient, CreateApiKeyCommand, CreateUsagePlanKeyCommand, UpdateApiKeyCommand } from '@aws-sdk/client-api-gateway';
import type { UsagePlanKeys } from '../../shared/shops/usage-plan-keys';

export type { UsagePlan } from '../../shared/shops/usage-plan-keys';

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
