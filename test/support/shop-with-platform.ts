// The set-up of the integration tests that run the domain against the simulated platform: a platform simulator
// holding the shop (no customers yet), a fresh table with the handlers' environment pointed at both (platform
// retries and timeouts short), the platform clients forgotten so they read that environment, and the shop's
// catalog stored. `table.drop()` stops the simulator, drops the table and lets the domain clock run again.
import { startPlatformSimulator, type PlatformSimulator } from '../../infra/local/simulator/platform-simulator';
import { putShopCatalog } from '../../shared/data/shop-repository';
import type { ShopCatalog } from '../../shared/domain/shop';
import { resetPlatforms } from '../../shared/platform/platform-for-shop';
import { setClock } from '../../shared/runtime/clock';
import { createTestTable } from './test-table';

export interface ShopWithPlatform {
  simulator: PlatformSimulator;
  table: { tableName: string; drop(): Promise<void> };
}

export async function shopWithPlatform(catalog: ShopCatalog): Promise<ShopWithPlatform> {
  const simulator = await startPlatformSimulator({ port: 0, shops: { [catalog.settings.id]: { customers: [] } } });
  const table = await createTestTable({
    environment: { PLATFORM_BASE_URL: simulator.url, PLATFORM_RETRY_BASE_MS: '1', PLATFORM_TIMEOUT_MS: '500' },
  });
  resetPlatforms();
  await putShopCatalog(catalog);
  return {
    simulator,
    table: {
      tableName: table.tableName,
      drop: async () => {
        setClock(null);
        await simulator.stop();
        await table.drop();
      },
    },
  };
}
