import Ajv2020 from 'ajv/dist/2020';
import {
  ADMIN_PAGES,
  ROUTES,
  SHOPPER_BUDGET,
  SHOPPER_ROUTES,
  shopperRouteClass,
  STAFF_API_PREFIX,
  THROTTLE_LIMITS,
} from '../../shared/runtime/entry-points';
import { buildOpenApiDocument } from '../../shared/openapi/openapi-document';

const document = buildOpenApiDocument();

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1 with the bare-key Authorization scheme', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.components.securitySchemes.apiKey).toEqual(
      expect.objectContaining({ type: 'apiKey', in: 'header', name: 'Authorization' }),
    );
  });

  it('has one operation per manifest route, each answering 401, 429 and 500 in the envelope', () => {
    for (const route of ROUTES) {
      const operation = (document.paths[route.path] as Record<string, { operationId: string; responses: Record<string, unknown> }>)[
        route.method.toLowerCase()
      ];
      expect(operation?.operationId).toBe(route.name);
      for (const status of ['401', '429', '500']) expect(operation!.responses[status]).toBeDefined();
    }
  });

  it('documents the staff-only API routes under the prefix, and the /v1 mirrors by a note, not an operation each (docs/admin.md#staff-api)', () => {
    expect(Object.keys(document.paths).filter((path) => path.startsWith(STAFF_API_PREFIX))).toEqual(
      ADMIN_PAGES.filter((page) => page.path.startsWith(`${STAFF_API_PREFIX}/`)).map((page) => page.path),
    );
    expect(document.tags.find((tag) => tag.name === 'Staff')?.description).toContain(
      '`/admin/api/v1/...` mirrors every `/v1/...` operation',
    );
  });

  it("points each history list at the staff mirror's answer, whose entries say who made them", () => {
    const paths = document.paths as Record<string, Record<string, { 'x-staff-mirror-response'?: unknown }>>;
    const mirrored = Object.entries(paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, operation]) => operation['x-staff-mirror-response'])
        .map(([method, operation]) => [
          `${method.toUpperCase()} ${path}`,
          JSON.stringify(operation['x-staff-mirror-response']).match(/Staff\w+/)?.[0],
        ]),
    );
    expect(mirrored).toEqual([
      ['GET /v1/customers/{identifier}/earning-history', 'StaffEarningHistoryList'],
      ['GET /v1/customers/{identifier}/reward-history', 'StaffRewardHistoryList'],
    ]);
  });

  it('refuses a route that has no documentation', () => {
    expect(() => buildOpenApiDocument([{ ...ROUTES[0]!, name: 'undocumented' }])).toThrow(
      'Route undocumented has no OpenAPI documentation',
    );
  });

  it('resolves every $ref and compiles every schema', () => {
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema({ $id: 'openapi', components: document.components }, 'openapi');
    for (const name of Object.keys(document.components.schemas)) expect(ajv.getSchema(`openapi#/components/schemas/${name}`)).toBeDefined();
    const refs = JSON.stringify(document.paths).match(/#\/components\/schemas\/[A-Za-z]+/g) ?? [];
    for (const ref of refs) expect(document.components.schemas).toHaveProperty(ref.split('/').pop()!);
  });

  it("states each operation's key scope and rate limit as the manifest sets them", () => {
    for (const route of ROUTES) {
      const operation = (document.paths[route.path] as Record<string, { description: string }>)[route.method.toLowerCase()]!;
      expect({ route: route.name, fullAccessOnly: operation.description.includes('Needs a full-access key') }).toEqual({
        route: route.name,
        fullAccessOnly: route.scope === 'full',
      });
      expect(operation.description).toContain(`Rate limit: ${THROTTLE_LIMITS[route.throttle].rateLimit} requests per second per key`);
    }
  });

  it('documents the Idempotency-Key header on write routes only', () => {
    for (const route of ROUTES) {
      const operation = (document.paths[route.path] as Record<string, { parameters: Array<{ name: string }> }>)[
        route.method.toLowerCase()
      ]!;
      expect(operation.parameters.some((p) => p.name === 'Idempotency-Key')).toBe(route.scope === 'full');
    }
  });
});

describe('the shopper routes in the OpenAPI document', () => {
  type Operation = { operationId: string; security: unknown[]; description: string; responses: Record<string, { headers?: object }> };
  const operationOf = (path: string, method: string) => (document.paths[path] as Record<string, Operation>)[method.toLowerCase()]!;

  it('documents each with the app proxy signature or the session token, never the API key, and its method throttle', () => {
    expect(document.components.securitySchemes).toMatchObject({
      appProxySignature: { type: 'apiKey', in: 'query', name: 'signature' },
      customerSessionToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
    });
    for (const route of SHOPPER_ROUTES) {
      const operation = operationOf(route.path, route.method);
      expect(operation.operationId).toBe(route.name);
      expect(operation.security).toEqual([{ appProxySignature: [] }, { customerSessionToken: [] }]);
      const budget = SHOPPER_BUDGET[shopperRouteClass(route)];
      expect(operation.description).toContain(`Rate limit: ${budget.rateLimit} requests per second per shop for its verified shoppers`);
      expect(operation.description).toContain(`${route.throttle.rateLimit} requests per second for all shops and callers together`);
      for (const status of ['200', '401', '429', '500'].filter((code) => code !== '200' || shopperRouteClass(route) === 'read')) {
        expect(operation.responses[status]?.headers).toHaveProperty('Access-Control-Allow-Origin');
      }
    }
  });

  it('documents the preflight of each shopper path without security', () => {
    for (const path of new Set(SHOPPER_ROUTES.map((route) => route.path))) {
      const preflight = operationOf(path, 'OPTIONS');
      expect(preflight.security).toEqual([]);
      expect(Object.keys(preflight.responses)).toEqual(['204']);
    }
  });

  it('refuses a shopper route that has no documentation', () => {
    expect(() => buildOpenApiDocument(ROUTES, [{ ...SHOPPER_ROUTES[0]!, name: 'undocumented' as never }])).toThrow(
      'Shopper route undocumented has no OpenAPI documentation',
    );
  });
});

describe('the staff-only routes in the OpenAPI document', () => {
  type Operation = {
    operationId: string;
    security: unknown[];
    description: string;
    parameters: Array<{ name: string; in: string }>;
    responses: Record<string, { headers?: Record<string, unknown> }>;
  };
  const staffPages = ADMIN_PAGES.filter((page) => page.path.startsWith(`${STAFF_API_PREFIX}/`));

  it('documents each with the staff ID token, never the API key, its query, its throttle and the retry header on 401', () => {
    expect(document.components.securitySchemes.staffIdToken).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    expect(staffPages.map((page) => page.name).sort()).toEqual(['browseMembers', 'programOverview', 'staffProgram']);
    for (const page of staffPages) {
      const operation = (document.paths[page.path] as Record<string, Operation>)[page.method.toLowerCase()]!;
      expect(operation.operationId).toBe(page.name);
      expect(operation.security).toEqual([{ staffIdToken: [] }]);
      expect(operation.description).toContain(`Rate limit: ${page.throttle.rateLimit} requests per second for all shops' staff together`);
      expect(operation.responses['401']?.headers).toHaveProperty('X-Shopify-Retry-Invalid-Session-Request');
      for (const status of ['200', '400', '401', '429', '500'])
        expect(operation.responses[status]?.headers).toHaveProperty('Access-Control-Allow-Origin');
      expect(operation.parameters.every((parameter) => parameter.in === 'query')).toBe(true);
    }
    const names = (path: string) => (document.paths[path] as Record<string, Operation>).get!.parameters.map((parameter) => parameter.name);
    expect(names('/admin/api/overview')).toEqual(['from', 'to']);
    expect(names('/admin/api/members')).toEqual(
      expect.arrayContaining(['sort', 'filter[loyalty_status]', 'filter[tier]', 'page[size]', 'page[cursor]']),
    );
  });

  it('leaves the page of HTML out', () => {
    expect(document.paths).not.toHaveProperty('/admin');
  });

  it('refuses a staff route that has no documentation', () => {
    expect(() => buildOpenApiDocument(ROUTES, SHOPPER_ROUTES, [{ ...staffPages[0]!, name: 'undocumented' as never }])).toThrow(
      'Staff route undocumented has no OpenAPI documentation',
    );
  });
});

describe('OpenAPI response validation', () => {
  it('catches a missing field, an extra field and an undocumented status', async () => {
    const { openApiValidator } = await import('../support/openapi-validator');
    const validator = openApiValidator(document);
    const body = {
      data: {
        type: 'customer_birthday',
        id: '1',
        attributes: { platform_customer_id: '1', email: 'a@b.c', date_of_birth: null },
      },
    };

    expect(validator.check('/v1/customers/{identifier}/birthday', 'GET', 200, body)).toBeNull();
    expect(
      validator.check('/v1/customers/{identifier}/birthday', 'GET', 200, {
        data: { ...body.data, attributes: { platform_customer_id: '1', date_of_birth: null } },
      }),
    ).toMatch(/email/);
    expect(
      validator.check('/v1/customers/{identifier}/birthday', 'GET', 200, {
        data: { ...body.data, attributes: { ...body.data.attributes, extra: 1 } },
      }),
    ).toMatch(/additional/);
    expect(validator.check('/v1/customers/{identifier}/birthday', 'GET', 418, body)).toMatch(/does not document status 418/);
  });
});
