// The customer account extensions as Shopify deploys them: the configuration's targets and capabilities,
// each target's bundle within Shopify's limits (64 KB compressed, 128 KB for a full page; and the raw
// 64 KB of Shopify's own build check), Preact in place of React, the sources type-checked against
// @shopify/ui-extensions, and every text the code asks for present in locales/.
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { mockClient } from 'aws-sdk-client-mock';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'smol-toml';
import {
  ACCOUNT_TARGETS,
  bundleAccountExtension,
  checkServiceUrl,
  currentServiceUrl,
  EXTENSION_DIR,
  readStackApiUrl,
  SERVICE_URL_FILE,
  serviceUrlModule,
  writeServiceUrl,
  type AccountBundle,
} from '../../scripts/account-extension-bundle';

const KB = 1024;

interface ExtensionToml {
  api_version: string;
  extensions: Array<{
    handle: string;
    type: string;
    targeting: Array<{ target: string; module: string }>;
    capabilities?: { network_access?: boolean };
  }>;
}

describe('the customer account extensions', () => {
  let bundles: AccountBundle[];
  beforeAll(async () => {
    bundles = await bundleAccountExtension();
  }, 60_000);

  it('declare each target once, on API 2026-01 or later, with network access, a full page alone in its extension', () => {
    const toml = parse(readFileSync(join(EXTENSION_DIR, 'shopify.extension.toml'), 'utf8')) as unknown as ExtensionToml;

    expect(toml.api_version >= '2026-01').toBe(true);
    expect(toml.api_version).toMatch(/^\d{4}-(01|04|07|10)$/);
    const declared = toml.extensions.flatMap((extension) =>
      extension.targeting.map((targeting) => ({ handle: extension.handle, target: targeting.target, module: targeting.module })),
    );
    expect(declared).toEqual(ACCOUNT_TARGETS.map(({ handle, target, module }) => ({ handle, target, module: `./${module}` })));
    for (const extension of toml.extensions) {
      expect(extension.type).toBe('ui_extension');
      expect(extension.capabilities?.network_access).toBe(true);
      // Shopify refuses a full-page target beside any other target of the same extension.
      if (extension.targeting.some((targeting) => targeting.target.endsWith('page.render'))) expect(extension.targeting).toHaveLength(1);
    }
    for (const { module } of ACCOUNT_TARGETS) expect(existsSync(join(EXTENSION_DIR, module))).toBe(true);
  });

  it("bundle each target within Shopify's limits", () => {
    for (const bundle of bundles) {
      expect({ target: bundle.target, withinCompressedLimit: bundle.gzipBytes <= bundle.limitBytes }).toEqual({
        target: bundle.target,
        withinCompressedLimit: true,
      });
      // Shopify's build refuses a compiled bundle above 64 KB: the raw bundle holds that too.
      expect({ target: bundle.target, raw: bundle.bytes <= 64 * KB }).toEqual({ target: bundle.target, raw: true });
    }
    const page = bundles.find((bundle) => bundle.target === 'customer-account.page.render')!;
    const block = bundles.find((bundle) => bundle.target === 'customer-account.order-index.block.render')!;
    expect([page.limitBytes, block.limitBytes]).toEqual([128 * KB, 64 * KB]);
    console.log(bundles.map((bundle) => `${bundle.target}: ${bundle.bytes} B minified, ${bundle.gzipBytes} B gzip`).join('\n'));
  });

  it('bundle Preact, no React, with nothing left to import at run time, and a default export for the host to call', () => {
    for (const bundle of bundles) {
      expect(bundle.code).not.toMatch(/\bimport\s*(\{|\*|["'])|\bimport\(|\brequire\(/);
      expect(bundle.code).toMatch(/export\s*\{[^}]*as default\s*\}/);
      expect(bundle.code).not.toMatch(/react-dom|__SECRET_INTERNALS|react\.element/);
    }
  });

  it('call the service URL of src/service-url.ts, or the one a build is given', async () => {
    const committed = await currentServiceUrl();
    expect(readFileSync(SERVICE_URL_FILE, 'utf8')).toBe(serviceUrlModule(committed));
    for (const bundle of bundles) expect(bundle.code).toContain(JSON.stringify(committed).slice(1, -1));

    const [page] = await bundleAccountExtension({ serviceUrl: 'https://abc.execute-api.eu-west-1.amazonaws.com/prod/' });
    expect(page!.code).toContain('https://abc.execute-api.eu-west-1.amazonaws.com/prod');
    expect(page!.code).not.toContain(committed);
  });

  it('refuse a service URL that is not an absolute http(s) URL without query or fragment', () => {
    expect(checkServiceUrl('https://abc.example.test/prod///')).toBe('https://abc.example.test/prod');
    expect(() => checkServiceUrl('abc.example.test')).toThrow('--service-url must be an absolute URL');
    expect(() => checkServiceUrl('ftp://abc.example.test')).toThrow('must be http(s)');
    expect(() => checkServiceUrl('https://abc.example.test/prod?x=1')).toThrow('no query or fragment');
    expect(serviceUrlModule("https://abc.example.test/it's")).toContain("export const SERVICE_URL = 'https://abc.example.test/it\\'s';");
  });

  it("take the service URL from a stack's ApiUrl output, and write it as src/service-url.ts's one constant", async () => {
    const cloudFormation = mockClient(CloudFormationClient);
    try {
      const stack = (outputs: Array<{ OutputKey: string; OutputValue: string }>) => ({
        Stacks: [{ StackName: 'LoyaltyApi', CreationTime: new Date(), StackStatus: 'CREATE_COMPLETE' as const, Outputs: outputs }],
      });
      cloudFormation
        .on(DescribeStacksCommand)
        .resolvesOnce(stack([{ OutputKey: 'ApiUrl', OutputValue: 'https://abc.execute-api.eu-west-1.amazonaws.com/prod/' }]));
      cloudFormation
        .on(DescribeStacksCommand)
        .resolvesOnce(stack([{ OutputKey: 'ApiUrl', OutputValue: 'https://abc.execute-api.eu-west-1.amazonaws.com/prod/' }]))
        .resolvesOnce(stack([{ OutputKey: 'TableName', OutputValue: 'x' }]));
      const client = new CloudFormationClient({ region: 'eu-west-1' });

      const url = await readStackApiUrl('LoyaltyApi', client);
      await expect(readStackApiUrl('LoyaltyApi', client)).rejects.toThrow("stack 'LoyaltyApi' has no output 'ApiUrl'");

      const file = join(mkdtempSync(join(tmpdir(), 'service-url-')), 'service-url.ts');
      expect(await writeServiceUrl(url, file)).toBe('https://abc.execute-api.eu-west-1.amazonaws.com/prod');
      expect(readFileSync(file, 'utf8')).toBe(serviceUrlModule(url));
      expect(await currentServiceUrl(file)).toBe('https://abc.execute-api.eu-west-1.amazonaws.com/prod');
    } finally {
      cloudFormation.restore();
    }
  });

  it('ask only for texts the default locale has', () => {
    const locale = JSON.parse(readFileSync(join(EXTENSION_DIR, 'locales', 'en.default.json'), 'utf8')) as Record<string, unknown>;
    const has = (key: string) =>
      key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], locale) !== undefined;
    const sources = readdirSync(join(EXTENSION_DIR, 'src'))
      .filter((file) => file.endsWith('.tsx'))
      .map((file) => readFileSync(join(EXTENSION_DIR, 'src', file), 'utf8'))
      .join('\n');
    const asked = [...sources.matchAll(/'([a-z]+(?:\.[A-Za-z_]+)+)'/g)]
      .map((match) => match[1]!)
      .filter((key) => key.split('.')[0]! in locale);
    expect(asked.length).toBeGreaterThan(30);
    expect(asked.filter((key) => !has(key))).toEqual([]);
  });

  it('type-check against the published extension types (tsc -p on the extension)', async () => {
    const tsc = join(require.resolve('typescript'), '..', '..', 'bin', 'tsc');
    const result = await promisify(execFile)(process.execPath, [tsc, '-p', EXTENSION_DIR], { cwd: EXTENSION_DIR }).then(
      () => ({ code: 0, output: '' }),
      (error: { code: number; stdout: string }) => ({ code: error.code, output: error.stdout }),
    );
    expect(result).toEqual({ code: 0, output: '' });
  }, 120_000);
});
