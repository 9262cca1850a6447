// The route manifest holds together: what it declares is what the handler chain and the files enforce.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { scopeAllows } from '../../shared/domain/api-key';
import { ENTRY_POINTS, requiredScope, ROUTES } from '../../shared/runtime/entry-points';

const ROOT = join(__dirname, '..', '..');

describe('route manifest', () => {
  it('declares for every route the scope the handler chain enforces for its method', () => {
    const mismatched = ROUTES.filter((route) => route.scope !== requiredScope(route.method)).map((route) => route.name);

    expect(mismatched).toEqual([]);
  });

  it('lets read keys only read and full keys do everything', () => {
    expect([scopeAllows('read', 'read'), scopeAllows('read', 'full'), scopeAllows('full', 'read'), scopeAllows('full', 'full')]).toEqual([
      true,
      false,
      true,
      true,
    ]);
  });

  it('names every route and every method-and-path once', () => {
    expect(new Set(ROUTES.map((route) => route.name)).size).toBe(ROUTES.length);
    expect(new Set(ROUTES.map((route) => `${route.method} ${route.path}`)).size).toBe(ROUTES.length);
  });

  it('points every entry at a handler file named functions/<resource>/<action>.ts that exists', () => {
    const handlers = ENTRY_POINTS.map(({ entry }) => entry.handler);

    for (const handler of handlers) {
      expect(handler).toMatch(/^functions\/[a-z-]+\/[a-z-]+\.ts$/);
      expect(existsSync(join(ROOT, handler))).toBe(true);
    }
  });
});
