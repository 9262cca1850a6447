#!/usr/bin/env node
// `npx loyalty ...`: runs the TypeScript operator CLI through tsx's CommonJS hook, no build step.
require('tsx/cjs/api').register();
const { main } = require('../infra/cli/main.ts');

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
