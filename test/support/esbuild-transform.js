// Jest transformer: TypeScript and ES modules (e.g. @middy/*, which ships ESM only) to CommonJS with
// esbuild, which the project already uses to bundle its Lambdas.
const { transformSync } = require('esbuild');

module.exports = {
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
    return { code: result.code };
  },
};
