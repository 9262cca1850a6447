// esbuild's settings for a handler bundled as the stack bundles it (infra/cdk/constructs/loyalty-function.ts:
// minified ESM for Node 22, AWS SDK included), shared by the bench's bundles and `npm run structure`.
import type { BuildOptions } from 'esbuild';

export function lambdaBundleOptions(tracing: 'true' | 'false' = 'false'): BuildOptions {
  return {
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    mainFields: ['module', 'main'],
    define: { 'process.env.POWERTOOLS_TRACE_ENABLED': JSON.stringify(tracing) },
    logLevel: 'silent',
  };
}
