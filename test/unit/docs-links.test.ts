// The README and docs/ link only to files that exist in a plain clone (no link out to the handbook
// folder beside the checkout), so a newcomer never follows a dead link.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

function relativeLinks(markdown: string): string[] {
  const links = [...markdown.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
  return links.filter((link) => !/^[a-z]+:/i.test(link) && !link.startsWith('#'));
}

describe('documentation links', () => {
  it.each(DOCS)('%s links only to files of the repository', (file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const broken = relativeLinks(text).filter((link) => {
      const target = resolve(dirname(join(ROOT, file)), decodeURI(link.split('#')[0]!));
      return !target.startsWith(ROOT + '/') || !existsSync(target);
    });

    expect(broken).toEqual([]);
  });

  it.each(DOCS)('%s carries no unresolved merge markers', (file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const markers = text.split('\n').filter((line) => /^(<{7}|={7}|>{7})( |$)/.test(line));

    expect(markers).toEqual([]);
  });

  it('keeps the README short: the rest lives in docs/', () => {
    const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length;

    expect(lines).toBeLessThanOrEqual(170);
  });
});
