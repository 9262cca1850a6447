// The app's home's browser code (infra/admin-ui/src, Preact) bundled with esbuild into one minified script,
// which GET /admin inlines in its page (docs/admin.md). The stack builds it beside the function's bundle
// (infra/cdk: the admin function's afterBundling step runs build-admin-app.ts), the twin at its start; the
// bench and the tests measure the same build.
import { build, transform } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export const ADMIN_UI_DIR = join(__dirname, 'src');

export interface AdminAppBundle {
  code: string;
  bytes: number;
  gzipBytes: number;
}

export async function bundleAdminApp(): Promise<AdminAppBundle> {
  const result = await build({
    entryPoints: [join(ADMIN_UI_DIR, 'main.tsx')],
    absWorkingDir: ADMIN_UI_DIR,
    tsconfig: join(ADMIN_UI_DIR, 'tsconfig.json'),
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2020',
    platform: 'browser',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'none',
    write: false,
    // The style sheet is inlined as text, minified first (its comments and spacing cost the page's weight).
    plugins: [
      {
        name: 'minified-css-text',
        setup(plugin) {
          plugin.onLoad({ filter: /\.css$/ }, async (args) => {
            const css = await transform(await readFile(args.path, 'utf8'), { loader: 'css', minify: true });
            return { contents: css.code, loader: 'text' };
          });
        },
      },
    ],
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.text;
  return { code, bytes: Buffer.byteLength(code), gzipBytes: gzipSync(code).length };
}
