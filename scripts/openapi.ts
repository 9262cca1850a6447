// `npm run openapi`: writes the OpenAPI 3.1 document to openapi.json.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildOpenApiDocument } from '../shared/openapi/openapi-document';

const file = join(__dirname, '..', 'openapi.json');
writeFileSync(file, `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
console.log(`written: ${file}`);
