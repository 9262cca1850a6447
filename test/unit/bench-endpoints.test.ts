// The bench's requests are filed under the routes that serve them, so the manifest's type check on
// its list (a route without an entry fails to compile) means what it says.
import { BENCH_ENDPOINTS, BENCH_ROUTES } from '../../bench/endpoints';
import { ROUTES, SHOPPER_ROUTES } from '../../shared/runtime/entry-points';

const pathPattern = (template: string) => new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);

describe('bench endpoints', () => {
  it('files every loaded request under the route that serves its method and path', () => {
    const misfiled = [...ROUTES, ...SHOPPER_ROUTES].flatMap((route) => {
      const entry = BENCH_ROUTES[route.name];
      if ('notLoaded' in entry) return [];
      return entry
        .filter((request) => request.method !== route.method || !pathPattern(route.path).test(request.path.split('?')[0]!))
        .map((request) => `${route.name}: ${request.name}`);
    });

    expect(misfiled).toEqual([]);
  });

  it('sends each shopper row with a session token and each API row with a key, never both', () => {
    const wrong = BENCH_ENDPOINTS.filter(
      (row) => row.path.startsWith('/shopper/') !== 'shopper' in row || 'shopper' in row === 'key' in row,
    );
    expect(wrong.map((row) => row.name)).toEqual([]);
  });
});
