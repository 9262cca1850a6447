// `npm run structure`: figures of the tree's shape, for reviews of a reshaping: files and lines per folder,
// repositories that import another repository, the places that build a `tier.changed` event, and the
// authorizer's bundle (bytes and modules). Prints a Markdown report; `--json` prints the figures as JSON.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { build } from 'esbuild';
import { lambdaBundleOptions } from '../bench/lambda-bundle';

const ROOT = join(__dirname, '..');

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

function lineCount(file: string): number {
  return readFileSync(file, 'utf8').split('\n').length - 1;
}

export interface FolderFigures {
  folder: string;
  files: number;
  lines: number;
}

/** Files and lines of every folder of shared/, functions/ and infra/. */
export function folderFigures(): FolderFigures[] {
  const folders = [
    ...readdirSync(join(ROOT, 'shared')).map((name) => `shared/${name}`),
    'functions',
    ...readdirSync(join(ROOT, 'infra')).map((name) => `infra/${name}`),
  ].filter((folder) => statSync(join(ROOT, folder)).isDirectory());
  return folders.map((folder) => {
    const files = tsFiles(join(ROOT, folder));
    return { folder, files: files.length, lines: files.reduce((sum, file) => sum + lineCount(file), 0) };
  });
}

const IMPORT = /from '([^']+)'/g;

/** A repository module: a data-layer file named `*-repository.ts`. */
function isRepository(path: string): boolean {
  return basename(path).replace(/\.ts$/, '').endsWith('-repository');
}

/** Each repository of shared/data with the repositories it imports. */
export function repositoryImports(): Array<{ repository: string; imports: string[] }> {
  return tsFiles(join(ROOT, 'shared', 'data'))
    .filter(isRepository)
    .map((file) => ({
      repository: relative(ROOT, file),
      imports: [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((match) => match[1]!).filter((target) => isRepository(target)),
    }))
    .filter((entry) => entry.imports.length > 0);
}

/** Object literals that build a `tier.changed` event (the event's type declaration is not one). */
export function tierChangedBuilders(): string[] {
  return tsFiles(join(ROOT, 'shared')).flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, index) => (/type: 'tier\.changed'(?!;)/.test(line) ? [`${relative(ROOT, file)}:${index + 1}`] : [])),
  );
}

export interface BundleShape {
  bytes: number;
  modules: number;
  projectModules: number;
  dataModules: string[];
}

/** The authorizer bundled as the stack bundles it, with the modules esbuild put in. */
export async function authorizerBundle(): Promise<BundleShape> {
  const result = await build({
    ...lambdaBundleOptions(),
    entryPoints: [join(ROOT, 'functions', 'auth', 'authorize.ts')],
    write: false,
    metafile: true,
    outfile: 'authorize.mjs',
  });
  const inputs = Object.keys(result.metafile.inputs);
  const project = inputs.filter((input) => !input.includes('node_modules/'));
  return {
    bytes: result.outputFiles.reduce((sum, file) => sum + file.contents.byteLength, 0),
    modules: inputs.length,
    projectModules: project.length,
    dataModules: project.filter((input) => input.startsWith('shared/data/')).sort(),
  };
}

async function main(): Promise<void> {
  const figures = {
    folders: folderFigures(),
    repositoryImports: repositoryImports(),
    tierChangedBuilders: tierChangedBuilders(),
    authorizer: await authorizerBundle(),
  };
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(figures, null, 2));
    return;
  }
  console.log('| folder | files | lines |\n|---|---:|---:|');
  for (const row of figures.folders) console.log(`| ${row.folder} | ${row.files} | ${row.lines} |`);
  console.log(`\nRepositories importing another repository: ${figures.repositoryImports.length}`);
  for (const entry of figures.repositoryImports) console.log(`- ${entry.repository}: ${entry.imports.join(', ')}`);
  console.log(`\nPlaces that build tier.changed: ${figures.tierChangedBuilders.length}`);
  for (const place of figures.tierChangedBuilders) console.log(`- ${place}`);
  const { bytes, modules, projectModules, dataModules } = figures.authorizer;
  console.log(
    `\nAuthorizer bundle: ${(bytes / 1024).toFixed(1)} KiB, ${modules} modules (${projectModules} of the project); data layer: ${dataModules.join(', ')}`,
  );
}

if (require.main === module) void main();
