#!/usr/bin/env node
// `npx loyalty ...`: the operator CLI. An installed package runs the bundle built before packing
// (dist/cli.cjs, production dependencies only); a checkout of the repository runs the TypeScript
// sources through tsx, so the CLI never lags behind the code being edited.
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const sources = join(__dirname, '..', 'infra', 'cli', 'main.ts');
let main;
if (existsSync(sources)) {
  require('tsx/cjs/api').register();
  ({ main } = require(sources));
} else {
  ({ main } = require(join(__dirname, '..', 'dist', 'cli.cjs')));
}

main(process.argv.slice(2)).then(
  (code) => {
    // exitCode rather than exit(): lets piped stdout drain before the process ends.
    process.exitCode = code;
  },
  (error) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  },
);
