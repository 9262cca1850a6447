// Validates real response bodies against the OpenAPI document's schema for (path, method, status).
import Ajv2020 from 'ajv/dist/2020';
import { buildOpenApiDocument } from '../../shared/openapi/openapi-document';

type Document = ReturnType<typeof buildOpenApiDocument>;

export function openApiValidator(document: Document = buildOpenApiDocument()) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addSchema({ $id: 'openapi', components: document.components }, 'openapi');
  const schemaOf = (path: string, method: string, status: number) => {
    const operation = (
      document.paths[path] as Record<
        string,
        { responses: Record<string, { content: { 'application/json': { schema: { $ref: string } } } }> }
      >
    )?.[method.toLowerCase()];
    const response = operation?.responses[String(status)];
    if (!response) return null;
    return response.content['application/json'].schema.$ref.replace('#/components', 'openapi#/components');
  };
  return {
    /** Null when valid; otherwise what is wrong (undocumented status, or the schema errors). */
    check(path: string, method: string, status: number, body: unknown): string | null {
      const ref = schemaOf(path, method, status);
      if (!ref) return `${method} ${path} does not document status ${status}`;
      const validate = ajv.getSchema(ref);
      if (!validate) return `no schema at ${ref}`;
      return validate(body)
        ? null
        : `${method} ${path} ${status}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 600)}`;
    },
  };
}
