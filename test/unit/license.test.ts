// A store deploys this code on its own account: the licence that lets it must be stated where npm, GitHub and a
// reader look (package.json, the lockfile's root entry, LICENSE, the README).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const read = (name: string) => readFileSync(join(ROOT, name), 'utf8');

describe('the licence', () => {
  it('is Apache-2.0 in package.json and in the lockfile', () => {
    expect(JSON.parse(read('package.json')).license).toBe('Apache-2.0');
    expect(JSON.parse(read('package-lock.json')).packages[''].license).toBe('Apache-2.0');
  });

  it("is the Apache License 2.0's whole text in LICENSE, its appendix filled in", () => {
    const text = read('LICENSE');
    expect(text).toContain('Apache License\n                           Version 2.0, January 2004');
    expect(text).toContain('END OF TERMS AND CONDITIONS');
    expect(text).not.toContain('[yyyy]');
    expect(text).toMatch(/^ {3}Copyright \d{4} \S.+$/m);
  });

  it('is named in the README', () => {
    expect(read('README.md')).toMatch(/\[Apache License 2\.0\]\(LICENSE\)/);
  });
});
