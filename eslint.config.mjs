// Lint rules: typescript-eslint's recommended set, plus the style rules the team agreed on.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'cdk.out/', 'coverage/', 'bench/results.json'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportDefaultDeclaration', message: 'Use named exports.' },
      ],
      'no-console': 'off',
    },
  },
  {
    // Jest's global setup and teardown must be default exports.
    files: ['test/support/global-*.ts', 'eslint.config.mjs', 'jest.config.js', 'test/support/esbuild-transform.js'],
    rules: { 'no-restricted-syntax': 'off', '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The CommonJS launcher of the operator CLI, and DynamoDB Local's watchdog (plain Node, started without tsx).
    files: ['bin/*.cjs', 'infra/local/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', process: 'readonly', console: 'readonly', setTimeout: 'readonly' } },
  },
  {
    files: ['jest.config.js', 'test/support/esbuild-transform.js'],
    languageOptions: { globals: { module: 'writable', require: 'readonly', __filename: 'readonly' } },
  },
);
