// The API reference at `/docs`: Swagger UI, read from its npm package and served by the twin itself,
// renders the twin's own `/openapi.json`, so browsing the API needs nothing from outside the machine.
// `GET /` is a small JSON index pointing there (the twin only: the deployed API serves the spec's routes).
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { RawBody } from './gateway';

const SWAGGER_UI_DIR = dirname(require.resolve('swagger-ui-dist/package.json'));

// BaseLayout has no "explore" bar, so the page shows this API only; no validator badge, which
// would send the document to validator.swagger.io.
const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Loyalty API reference</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script>
    window.ui = SwaggerUIBundle({
      url: '/openapi.json',
      dom_id: '#swagger-ui',
      presets: [SwaggerUIBundle.presets.apis],
      layout: 'BaseLayout',
      deepLinking: true,
      validatorUrl: null,
    });
  </script>
</body>
</html>
`;

/** Each asset is read once, on first request, and kept: the bundle is 1.7 MB. */
function asset(file: string, contentType: string): () => Promise<RawBody> {
  let body: Promise<Buffer> | undefined;
  return async () => {
    body ??= readFile(join(SWAGGER_UI_DIR, file));
    return new RawBody(contentType, await body);
  };
}

/** What `GET /` answers: where the reference, the document and the API are. */
export const ROOT_INDEX = {
  name: 'Loyalty API (local twin)',
  reference: '/docs',
  openapi: '/openapi.json',
  api: '/v1',
  message: 'The API is under /v1 (Authorization: the bare API key); its browsable reference is at /docs.',
} as const;

/** Control endpoints for the gateway, by "METHOD /path". */
export function apiReferenceEndpoints(): Record<string, () => Promise<RawBody | typeof ROOT_INDEX>> {
  return {
    'GET /': async () => ROOT_INDEX,
    'GET /docs': async () => new RawBody('text/html; charset=utf-8', PAGE),
    'GET /docs/swagger-ui-bundle.js': asset('swagger-ui-bundle.js', 'text/javascript; charset=utf-8'),
    'GET /docs/swagger-ui.css': asset('swagger-ui.css', 'text/css; charset=utf-8'),
  };
}
