// Lint rules: typescript-eslint's recommended set, the promise rules that need type information (a
// floating promise in a Lambda is work that silently never finishes), and the layers of docs/code-map.md:
// each layer imports only itself and the layers below it, so a wrong import fails `npm run lint`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const FEATURES = [
  'auth',
  'customers',
  'points',
  'purchases',
  'history',
  'rules',
  'shops',
  'orders',
  'webhooks',
  'calendar',
  'actions',
  'referrals',
  'import',
  'shopper',
  'delivery',
  'klaviyo',
  'figures',
  'staff',
];
const shared = (...folders) => folders.map((folder) => `../${folder}/*`);
/** Code outside the domain library: nothing in shared/ may reach it. */
const OUTSIDE_SHARED = ['**/functions/**', '**/infra/**', '**/test/**', '**/bench/**', '**/scripts/**'];

/**
 * The feature folders from the bottom up (docs/code-map.md, "Within the features"): each may import only the
 * folders before it here. `npm run structure` reads this list to count the imports that run back up.
 */
const FEATURE_ORDER = [
  'delivery',
  'auth',
  'customers',
  'rules',
  'import',
  'shops',
  'points',
  'history',
  'purchases',
  'referrals',
  'actions',
  'orders',
  'webhooks',
  'calendar',
  'shopper',
  'klaviyo',
  'figures',
  'staff',
];
const unordered = FEATURES.filter((feature) => !FEATURE_ORDER.includes(feature));
if (unordered.length > 0) throw new Error(`eslint.config.mjs: give ${unordered.join(', ')} a place in FEATURE_ORDER`);

/** One layer: its files may not import the groups named. Each file belongs to exactly one layer. */
const layer = (name, files, forbidden, options = {}) => ({
  name: `layers/${name}`,
  files,
  ...(options.ignores ? { ignores: options.ignores } : {}),
  rules: {
    'no-restricted-imports': ['error', { patterns: [{ group: forbidden, message: `${name}: ${options.why} (docs/code-map.md).` }] }],
  },
});

/**
 * A stricter rule for some of a layer's files: the layer's own patterns (a later config replaces the rule
 * for the files it matches, so they are repeated) plus one more group with its own message.
 */
const within = (base, name, files, forbidden, why) => ({
  name: `layers/${name}`,
  files,
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          ...base.rules['no-restricted-imports'][1].patterns,
          { group: forbidden, message: `${name}: ${why} (docs/code-map.md).` },
        ],
      },
    ],
  },
});

/**
 * `base` (a layer over every feature folder) for one feature's files, plus the feature order: nothing from the
 * folders above it. `extra` groups come first; the folders they already forbid are left out of the order's group,
 * so one wrong import gets one message.
 */
const inFeatureOrder = (base, feature, files, extra = []) => {
  const position = FEATURE_ORDER.indexOf(feature);
  const below = FEATURE_ORDER.slice(0, position);
  const taken = extra.flatMap((pattern) => pattern.group);
  const forbidden = shared(...FEATURE_ORDER.slice(position + 1)).filter((pattern) => !taken.includes(pattern));
  const message =
    `feature order: shared/${feature} may import only the feature folders below it (${below.join(', ') || 'none'}); ` +
    `from the bottom up: ${FEATURE_ORDER.join(' < ')} (docs/code-map.md).`;
  return {
    name: `${base.name}/${feature}`,
    files,
    ...(base.ignores ? { ignores: base.ignores } : {}),
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...base.rules['no-restricted-imports'][1].patterns,
            ...extra,
            ...(forbidden.length > 0 ? [{ group: forbidden, message }] : []),
          ],
        },
      ],
    },
  };
};

const DATA_LAYER = layer(
  'shared/data',
  ['shared/data/**'],
  [...shared('platform', 'outbound', 'config', 'http', 'openapi', ...FEATURES), ...OUTSIDE_SHARED],
  { why: 'repositories import only the domain and the runtime base; no feature, HTTP or configuration file code' },
);

const FEATURE_SERVICES = layer(
  'feature services',
  FEATURES.map((feature) => `shared/${feature}/**`),
  [...shared('http', 'openapi'), ...OUTSIDE_SHARED, '@aws-sdk/*', 'aws-lambda'],
  {
    ignores: ['**/*-requests.ts', '**/*-resource.ts'],
    why: 'services and rules raise domain errors and never speak HTTP or DynamoDB; only *-requests.ts and *-resource.ts touch the HTTP edge',
  },
);

/** The order logic's own message for the import the feature order would refuse anyway: it is the classic mistake. */
const ORDERS_BELOW_WEBHOOKS = {
  group: ['../webhooks/*'],
  message: 'shared/orders: the order logic never imports the webhook pipeline (shared/webhooks); the pipeline calls it (docs/code-map.md).',
};

const FEATURE_EDGES = layer(
  'feature edges',
  FEATURES.flatMap((feature) => [`shared/${feature}/**/*-requests.ts`, `shared/${feature}/**/*-resource.ts`]),
  [...shared('openapi'), ...OUTSIDE_SHARED, '@aws-sdk/*'],
  {
    why: 'request parsers and resources import the domain, the HTTP edge and their feature only',
  },
);

const LAYERS = [
  layer(
    'shared/domain',
    ['shared/domain/**'],
    ['../*', '../**', '@aws-sdk/*', '@aws-lambda-powertools/*', '@middy/*', 'aws-lambda', 'zod', 'zod/*'],
    {
      why: 'pure domain logic imports only shared/domain (no AWS, no HTTP, no I/O)',
    },
  ),
  layer(
    'shared/runtime and observability',
    ['shared/runtime/**', 'shared/observability/**'],
    [...shared('data', 'platform', 'outbound', 'config', 'http', 'openapi', ...FEATURES), ...OUTSIDE_SHARED],
    { why: 'the runtime base imports only shared/domain, runtime and observability' },
  ),
  DATA_LAYER,
  within(
    DATA_LAYER,
    'shared/data repositories',
    ['shared/data/**/*-repository.ts'],
    ['**/*-repository'],
    'a repository never imports another repository; what several share lives in the item modules (shared/data/items/) and the helper modules',
  ),
  layer(
    'shared/platform',
    ['shared/platform/**'],
    [
      ...shared('data', 'outbound', 'config', 'http', 'openapi', ...FEATURES),
      ...OUTSIDE_SHARED,
      '@aws-sdk/client-dynamodb',
      '@aws-sdk/lib-dynamodb',
    ],
    {
      why: 'the platform port and adapter import only the domain and the runtime base',
    },
  ),
  layer(
    'shared/outbound',
    ['shared/outbound/**'],
    [
      ...shared('data', 'platform', 'config', 'http', 'openapi', ...FEATURES),
      ...OUTSIDE_SHARED,
      '@aws-sdk/client-dynamodb',
      '@aws-sdk/lib-dynamodb',
    ],
    {
      why: 'the outbound clients (the event bus, SQS, Klaviyo, the authorizer cache) import only the domain and the runtime base',
    },
  ),
  layer(
    'shared/config',
    ['shared/config/**'],
    [
      ...shared('data', 'platform', 'outbound', 'http', 'openapi', 'runtime', 'observability', ...FEATURES),
      ...OUTSIDE_SHARED,
      '@aws-sdk/*',
    ],
    {
      why: 'the configuration file format depends only on the domain',
    },
  ),
  layer(
    'shared/http',
    ['shared/http/**'],
    [...shared('platform', 'outbound', 'config', 'openapi', ...FEATURES), ...OUTSIDE_SHARED, '@aws-sdk/*'],
    {
      why: 'the HTTP edge knows no feature; features plug into it',
    },
  ),
  FEATURE_SERVICES,
  ...FEATURES.map((feature) =>
    inFeatureOrder(FEATURE_SERVICES, feature, [`shared/${feature}/**`], feature === 'orders' ? [ORDERS_BELOW_WEBHOOKS] : []),
  ),
  FEATURE_EDGES,
  ...FEATURES.map((feature) =>
    inFeatureOrder(FEATURE_EDGES, feature, [`shared/${feature}/**/*-requests.ts`, `shared/${feature}/**/*-resource.ts`]),
  ),
  layer('shared/openapi', ['shared/openapi/**'], [...shared('data', 'platform', 'outbound'), ...OUTSIDE_SHARED, '@aws-sdk/*'], {
    why: 'the OpenAPI document is built from the manifest and the request and response schemas only',
  }),
  layer('functions', ['functions/**'], ['**/infra/**', '**/test/**', '**/bench/**', '**/shared/data/**', '@aws-sdk/*'], {
    why: 'a handler calls a domain service through shared/; it never reaches the tables or the infrastructure',
  }),
  layer('infra/cdk', ['infra/cdk/**'], ['**/local/**', '**/cli/**', '**/functions/**', '**/test/**', '**/bench/**'], {
    why: 'the stack reads the manifest and table definition from shared/ and names handlers by path only',
  }),
  layer('infra/local', ['infra/local/**'], ['**/cdk/**', '**/cli/**', '**/test/**', '**/bench/**'], {
    why: 'the twin runs the shared code and the handlers; it does not depend on the stack or the CLI',
  }),
  layer('infra/cli', ['infra/cli/**'], ['**/cdk/**', '**/test/**', '**/bench/**'], {
    why: 'the operator CLI does not depend on the stack',
  }),
];

export default tseslint.config(
  { ignores: ['node_modules/', 'cdk.out/', 'coverage/', 'dist/', 'bench/results.json'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': ['error', { selector: 'ExportDefaultDeclaration', message: 'Use named exports.' }],
      // Lambda code logs through the structured logger; console output is for the twin, bench, scripts and CLI.
      'no-console': 'error',
    },
  },
  {
    // Type-aware promise rules on the TypeScript sources.
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  ...LAYERS,
  {
    files: ['infra/local/**', 'infra/cli/**', 'bench/**', 'scripts/**', 'test/**', 'bin/**'],
    rules: { 'no-console': 'off' },
  },
  {
    // Jest's global setup and teardown must be default exports; its test environment is a CommonJS module.
    files: [
      'test/support/global-*.ts',
      'eslint.config.mjs',
      'jest.config.js',
      'test/support/esbuild-transform.js',
      'test/support/test-environment.js',
    ],
    rules: { 'no-restricted-syntax': 'off', '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Shopify loads each customer account target from its module's default export; shopify.d.ts is in the
    // form Shopify's CLI writes it (each `declare module` behind a @ts-ignore); a stylesheet imported as
    // text (the app's home) is a module's default export as esbuild's text loader makes it.
    files: [
      'infra/shopify-app/extensions/*/src/[A-Z]*.tsx',
      'infra/shopify-app/extensions/*/shopify.d.ts',
      'infra/admin-ui/src/assets.d.ts',
    ],
    rules: { 'no-restricted-syntax': 'off', '@typescript-eslint/ban-ts-comment': 'off' },
  },
  {
    // The CommonJS launcher of the operator CLI, and DynamoDB Local's watchdog (plain Node, started without tsx).
    files: ['bin/*.cjs', 'infra/local/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', process: 'readonly', console: 'readonly', __dirname: 'readonly', setTimeout: 'readonly' },
    },
  },
  {
    files: ['jest.config.js', 'test/support/esbuild-transform.js', 'test/support/test-environment.js'],
    languageOptions: { globals: { module: 'writable', require: 'readonly', __filename: 'readonly' } },
  },
  {
    // The theme app extension's scripts run in the shopper's browser, as plain scripts (no module).
    files: ['infra/shopify-app/**/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: {
        window: 'readonly',
        document: 'readonly',
        navigator: 'readonly',
        crypto: 'readonly',
        fetch: 'readonly',
        setTimeout: 'readonly',
        Intl: 'readonly',
        localStorage: 'readonly',
        CustomEvent: 'readonly',
      },
    },
  },
);
