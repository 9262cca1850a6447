// `npm run build:cli`: writes dist/cli.cjs (see cli-bundle.ts).
import { buildCli } from './cli-bundle';

buildCli().then(
  (outfile) => console.log(`built ${outfile}`),
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
