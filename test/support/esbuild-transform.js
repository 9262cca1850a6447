// Jest transformer: TypeScript and ES modules (e.g. @middy/*, which ships ESM only) to CommonJS with
// esbuild, which the project already uses to bundle its Lambdas. esbuild hoists imports, so a file
// that calls jest.mock() also goes through jest's own hoisting plugin to put the mocks first.
const { transformSync } = require('esbuild');
const babel = require('@babel/core');
const { createHash } = require('node:crypto');
const { readFileSync } = require('node:fs');

// Jest caches transformed files; the key must change when this transformer changes.
const SELF = readFileSync(__filename);

module.exports = {
  getCacheKey(source, filename) {
    return createHash('sha1').update(SELF).update(filename).update('\0').update(source).digest('hex');
  },
  process(source, filename) {
    const result = transformSync(source, {
      loader: /\.tsx?$/.test(filename) ? 'ts' : 'js',
      format: 'cjs',
      target: 'node20',
      platform: 'node',
      sourcemap: 'inline',
      sourcefile: filename,
      // Turn import() into require() so jest's module registry (and its transforms) load the module.
      supported: { 'dynamic-import': false },
    });
    if (!/\bjest\.mock\(/.test(source)) return { code: result.code };
    const hoisted = babel.transformSync(result.code, {
      filename,
      babelrc: false,
      configFile: false,
      plugins: [require.resolve('babel-plugin-jest-hoist')],
      sourceMaps: 'inline',
      inputSourceMap: true,
    });
    return { code: hoisted.code };
  },
};
