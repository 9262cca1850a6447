// Shopify's Theme Check (@shopify/theme-check-node, the checks `shopify theme check` runs) on the theme app
// extension as it ships: no offense of any severity. A copy with faults proves the check reads the files.
import { cpSync, mkdtempSync, appendFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { themeCheckRun } from '@shopify/theme-check-node';
import { THEME_EXTENSION_DIR } from '../../infra/local/simulator/storefront-theme';

jest.setTimeout(60_000);

const offensesOf = async (dir: string) =>
  (await themeCheckRun(dir, undefined, () => undefined)).offenses.map((offense) => ({
    check: offense.check,
    file: offense.uri.split('/').slice(-2).join('/'),
    message: offense.message,
  }));

describe('Theme Check on the theme app extension', () => {
  it('finds nothing in the extension as it ships', async () => {
    expect(await offensesOf(THEME_EXTENSION_DIR)).toEqual([]);
  });

  it('finds the faults of a copy given some', async () => {
    const copy = mkdtempSync(join(tmpdir(), 'theme-check-'));
    try {
      cpSync(THEME_EXTENSION_DIR, copy, { recursive: true });
      appendFileSync(join(copy, 'blocks', 'product-points.liquid'), "{{ product.title | no_such_filter }}\n{% render 'missing' %}\n");
      const checks = (await offensesOf(copy)).map((offense) => offense.check).sort();
      expect(checks).toEqual(['MissingTemplate', 'UnknownFilter']);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
