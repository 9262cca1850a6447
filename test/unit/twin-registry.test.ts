// The running twins' registry the operator CLI reads to flush their authorizer caches: a twin is found
// by its DynamoDB endpoint (however the loopback is spelt) and table while its process lives, and its
// registration goes when it stops (or when a reader finds its process gone).
import { createServer, type AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { twinAuthorizerCaches } from '../../infra/cli/stage-authorizer-cache';
import { registerTwin, runningTwins } from '../../infra/local/twin-registry';
import { resolveTarget } from '../../infra/cli/targets';
import { localShopSecret, registerLocalShopSecrets } from '../../shared/platform/shop-secrets';

const dir = mkdtempSync(join(tmpdir(), 'twin-registry-'));
beforeAll(() => {
  process.env.LOYALTY_TWIN_REGISTRY = dir;
});
afterAll(() => {
  delete process.env.LOYALTY_TWIN_REGISTRY;
  rmSync(dir, { recursive: true, force: true });
});

describe('the twin registry', () => {
  it('finds a live twin by endpoint and table, not after its stop, and never a dead process', () => {
    const unregister = registerTwin({
      url: 'http://127.0.0.1:4000',
      dynamodbEndpoint: 'http://127.0.0.1:4002',
      tableName: 'loyalty-local',
    });
    // A twin killed without its stop: its file stays, its process is gone.
    writeFileSync(
      join(dir, '999999999-5000.json'),
      JSON.stringify({
        pid: 999_999_999,
        url: 'http://127.0.0.1:5000',
        dynamodbEndpoint: 'http://127.0.0.1:4002',
        tableName: 'loyalty-local',
      }),
    );
    writeFileSync(join(dir, 'half-written.json'), '{"pid":');

    expect(runningTwins('http://localhost:4002/', 'loyalty-local').map((twin) => twin.url)).toEqual(['http://127.0.0.1:4000']);
    expect(runningTwins('http://127.0.0.1:4002', 'other-table')).toEqual([]);
    expect(existsSync(join(dir, '999999999-5000.json'))).toBe(false);
    expect(runningTwins('http://127.0.0.1:8000', 'loyalty-local')).toEqual([]);
    expect(twinAuthorizerCaches('http://127.0.0.1:4002', 'loyalty-local')?.description).toBe('the twin at http://127.0.0.1:4000');

    unregister();

    expect(runningTwins('http://127.0.0.1:4002', 'loyalty-local')).toEqual([]);
    expect(twinAuthorizerCaches('http://127.0.0.1:4002', 'loyalty-local')).toBeNull();
  });

  it('skips a listed twin that stopped meanwhile (nothing listens), so a revocation still completes', async () => {
    const closed = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const unregister = registerTwin({ url: `http://127.0.0.1:${closed}`, dynamodbEndpoint: 'http://127.0.0.1:4102', tableName: 't' });
    const caches = twinAuthorizerCaches('http://127.0.0.1:4102', 't')!;
    unregister();

    await expect(caches.flush()).resolves.toBeUndefined();
  });

  it("gives the CLI a twin's platform simulator for this table, unless PLATFORM_BASE_URL names one", async () => {
    const saved = process.env.PLATFORM_BASE_URL;
    const unregister = registerTwin({
      url: 'http://127.0.0.1:4200',
      dynamodbEndpoint: 'http://127.0.0.1:4202',
      tableName: 'loyalty-local',
      platformUrl: 'http://127.0.0.1:4201',
    });
    try {
      delete process.env.PLATFORM_BASE_URL;
      await resolveTarget({ endpoint: 'http://127.0.0.1:4202', table: 'other-table' });
      expect(process.env.PLATFORM_BASE_URL).toBeUndefined();
      await resolveTarget({ endpoint: 'http://localhost:4202' });
      expect(process.env.PLATFORM_BASE_URL).toBe('http://127.0.0.1:4201');
      process.env.PLATFORM_BASE_URL = 'http://127.0.0.1:9999';
      await resolveTarget({ endpoint: 'http://127.0.0.1:4202' });
      expect(process.env.PLATFORM_BASE_URL).toBe('http://127.0.0.1:9999');
    } finally {
      unregister();
      if (saved === undefined) delete process.env.PLATFORM_BASE_URL;
      else process.env.PLATFORM_BASE_URL = saved;
    }
  });

  it("gives the CLI the shops' credentials of the twin's configuration file, read when a command needs them", async () => {
    const saved = process.env.PLATFORM_BASE_URL;
    const configFile = join(mkdtempSync(join(tmpdir(), 'twin-config-')), 'cc.json');
    const shop = { id: 'cc', name: 'CC', currency: 'USD', referral_base_url: 'https://cc.example/' };
    writeFileSync(
      configFile,
      JSON.stringify({
        shops: [
          { ...shop, platform: { client_id: 'cc-id', client_secret: 'cc-secret' } },
          { ...shop, id: 'legacy' },
        ],
      }),
    );
    const unregister = registerTwin({
      url: 'http://127.0.0.1:4300',
      dynamodbEndpoint: 'http://127.0.0.1:4302',
      tableName: 'loyalty-local',
      platformUrl: 'http://127.0.0.1:4301',
      configFile,
    });
    try {
      delete process.env.PLATFORM_BASE_URL;
      expect((await resolveTarget({ endpoint: 'http://127.0.0.1:4302', table: 'other-table' })).loadPlatformCredentials).toBeNull();
      const target = await resolveTarget({ endpoint: 'http://127.0.0.1:4302' });
      expect(localShopSecret('cc')).toBeUndefined();

      target.loadPlatformCredentials!();

      expect(localShopSecret('cc')?.credentials).toEqual({ kind: 'client_credentials', clientId: 'cc-id', clientSecret: 'cc-secret' });
      expect(localShopSecret('legacy')?.credentials).toBeNull();
      // The file changed into something unreadable since the twin started: said, with the file's path.
      writeFileSync(configFile, '{"shops": [');
      expect(() => target.loadPlatformCredentials!()).toThrow(`The twin on this table was started with ${configFile}`);
    } finally {
      unregister();
      registerLocalShopSecrets(null);
      if (saved === undefined) delete process.env.PLATFORM_BASE_URL;
      else process.env.PLATFORM_BASE_URL = saved;
    }
  });
});
