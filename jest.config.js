const os = require('node:os');
// Jest projects by test layer. DynamoDB Local is started once for the whole run (test/support/global-setup.ts).
const transform = { '^.+\\.(t|j|mj)sx?$': '<rootDir>/test/support/esbuild-transform.js' };
// @middy/* and jose ship ESM only; let the transformer turn them into CommonJS for jest.
const transformIgnorePatterns = ['/node_modules/(?!(@middy|jose)/)'];
// After each file, the tables it was given names for are deleted (test/support/drop-tables.ts), and its own
// DynamoDB Local for twins' tables, if it started one, is stopped (test/support/test-environment.js).
const base = {
  testEnvironment: '<rootDir>/test/support/test-environment.js',
  transform,
  transformIgnorePatterns,
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  setupFilesAfterEnv: ['<rootDir>/test/support/drop-tables.ts'],
};

/** @type {import('jest').Config} */
module.exports = {
  transform,
  // One worker per core, up to 4 (each worker lends its files a DynamoDB Local of its own). Jest's default
  // leaves a core free, which on a 2-core machine is half of it: most of a file's time is DynamoDB Local's Java
  // answering, which the other worker's Java and Node overlap.
  maxWorkers: Math.max(1, Math.min(4, os.availableParallelism())),
  // Generous per-test timeout: DynamoDB Local on a busy 2-core CI machine is slow to answer.
  testTimeout: 30_000,
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  projects: [
    { ...base, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
    { ...base, displayName: 'integration', testMatch: ['<rootDir>/test/integration/**/*.test.ts'] },
    { ...base, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.test.ts'] },
    { ...base, displayName: 'infra', testMatch: ['<rootDir>/test/infra/**/*.test.ts'] },
  ],
};
