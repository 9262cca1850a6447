// The bench's requests are filed under the routes that serve them, so the manifest's type check on
// its list (a route without an entry fails to compile) means what it says.
import { BENCH_ROUTES } from '../../bench/endpoints';
import { ROUTES } from '../../shared/http/routes';

const pathPattern = (template: string) => new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);

describe('bench endpoints', () => {
  it('files every loaded request under the route that serves its method and path', () => {
    const misfiled = ROUTES.flatMap((route) => {
      const entry = BENCH_ROUTES[route.name];
      if ('notLoaded' in entry) return [];
      return entry
        .filter((request) => request.method !== route.method || !pathPattern(route.path).test(request.path.split('?')[0]!))
        .map((request) => `${route.name}: ${request.name}`);
    });

    expect(misfiled).toEqual([]);
  });
});
