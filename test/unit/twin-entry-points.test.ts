// Where a newcomer's browser lands on the twin: `/docs/` is the reference like `/docs`, and `GET /` points
// there instead of answering "No route".
import { join } from 'node:path';
import { apiReferenceEndpoints, ROOT_INDEX } from '../../infra/local/api-reference-endpoints';
import { startGateway, type Gateway } from '../../infra/local/gateway';
import { ROUTES } from '../../shared/runtime/entry-points';

let gateway: Gateway;

beforeAll(async () => {
  gateway = await startGateway({
    routes: ROUTES,
    root: join(__dirname, '..', '..'),
    port: 0,
    limiter: null,
    control: apiReferenceEndpoints(),
  });
});
afterAll(async () => {
  await gateway.stop();
});

describe('the twin’s entry points', () => {
  it('serves the reference at /docs/ exactly as at /docs', async () => {
    // Act
    const [plain, slash] = await Promise.all([fetch(`${gateway.url}/docs`), fetch(`${gateway.url}/docs/`)]);

    // Assert
    expect(slash.status).toBe(200);
    expect(slash.headers.get('content-type')).toBe(plain.headers.get('content-type'));
    expect(await slash.text()).toBe(await plain.text());
  });

  it('answers GET / with an index pointing at /docs and /openapi.json', async () => {
    // Act
    const response = await fetch(`${gateway.url}/`);

    // Assert
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(ROOT_INDEX);
    expect(ROOT_INDEX).toMatchObject({ reference: '/docs', openapi: '/openapi.json' });
  });

  it('still answers another method on / with the 404 envelope', async () => {
    // Act
    const response = await fetch(`${gateway.url}/`, { method: 'POST' });

    // Assert
    expect(response.status).toBe(404);
    expect(((await response.json()) as { errors: Array<{ detail: string }> }).errors[0]!.detail).toBe('No route matches POST /');
  });
});
