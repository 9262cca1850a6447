#!/usr/bin/env node
// `npx loyalty ...`: runs the TypeScript CLI through tsx, no build step.
require('tsx/cjs/api').register();
const { main } = require('../infra/cli/main.ts');

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
