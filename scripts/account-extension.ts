// `npm run account-extension -- [--stack NAME [--region R] | --service-url URL]`: points the customer
// account extensions, the admin block, the checkout extensions and the POS extension at a service (writes
// src/service-url.ts of infra/shopify-app/extensions/loyalty-account, loyalty-admin, loyalty-checkout and loyalty-pos,
// which Shopify's CLI builds into them at `shopify app deploy`), then bundles them and prints each target's size
// against Shopify's limit.
// Without an option it only bundles and measures.
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { relative } from 'node:path';
import { parseArgs } from 'node:util';
import {
  bundleAccountExtension,
  bundleAdminExtension,
  bundleCheckoutExtension,
  bundlePosExtension,
  currentServiceUrl,
  readStackApiUrl,
  SERVICE_URL_FILES,
  writeServiceUrl,
} from './account-extension-bundle';

async function stackApiUrl(stack: string, region: string | undefined): Promise<string> {
  const client = new CloudFormationClient(region ? { region } : {});
  try {
    return await readStackApiUrl(stack, client);
  } finally {
    client.destroy();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { stack: { type: 'string' }, region: { type: 'string' }, 'service-url': { type: 'string' } },
    strict: true,
  });
  if (values.stack !== undefined && values['service-url'] !== undefined) throw new Error('pass --stack or --service-url, not both');
  const serviceUrl = values.stack !== undefined ? await stackApiUrl(values.stack, values.region) : values['service-url'];
  if (serviceUrl !== undefined) {
    for (const file of SERVICE_URL_FILES)
      console.log(`service URL written to ${relative(process.cwd(), file)}: ${await writeServiceUrl(serviceUrl, file)}`);
  } else {
    for (const file of SERVICE_URL_FILES) console.log(`service URL (${relative(process.cwd(), file)}): ${await currentServiceUrl(file)}`);
  }
  for (const bundle of [
    ...(await bundleAccountExtension()),
    ...(await bundleAdminExtension()),
    ...(await bundleCheckoutExtension()),
    ...(await bundlePosExtension()),
  ]) {
    const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
    console.log(`${bundle.target}: ${kb(bundle.bytes)} minified, ${kb(bundle.gzipBytes)} gzip (Shopify's limit ${kb(bundle.limitBytes)})`);
  }
}

main().catch((error: unknown) => {
  console.error(`account-extension: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
