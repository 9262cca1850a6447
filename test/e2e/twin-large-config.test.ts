// `npm start` on a configuration with many members shows them loading on stderr before its ready line:
// members loaded of how many, the rate and the time left, then the time it took (the same lines as
// `loyalty config apply`), so a user can tell loading from hanging. A real start, as a user runs it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { npmStartArgsOn, streamEndpoint } from '../support/stream-dynamodb';
import { uniqueTableName } from '../support/test-table';
import { freePortRun, killGroup, runNpm, type NpmProcess } from '../support/twin-process';

jest.setTimeout(600_000);

const MEMBERS = 1_500;
const CREATED_AT = '2025-01-01T00:00:00.000Z';
const dir = mkdtempSync(join(tmpdir(), 'twin-large-'));
const started: NpmProcess[] = [];
afterAll(() => {
  for (const npm of started) killGroup(npm.pid);
  rmSync(dir, { recursive: true, force: true });
});

describe('npm start on a large configuration', () => {
  it('prints the members loading on stderr, members of how many with the rate and the time left, before the ready line', async () => {
    const config = join(dir, 'large.json');
    writeFileSync(
      config,
      JSON.stringify({
        shops: [
          {
            id: 'large',
            name: 'Large shop',
            currency: 'USD',
            referral_base_url: 'https://large.example/',
            api_keys: [{ name: 'Backend', scope: 'full', key: 'large_full_key_0001' }],
            platform: {
              customers: Array.from({ length: MEMBERS }, (_, i) => ({
                id: String(700_001 + i),
                email: `member${700_001 + i}@example.com`,
                created_at: CREATED_AT,
              })),
            },
            members: Array.from({ length: MEMBERS }, (_, i) => ({
              platform_customer_id: String(700_001 + i),
              current_points: i % 500,
              lifetime_points: i % 500,
              enrolled_at: CREATED_AT,
            })),
          },
        ],
      }),
    );
    const port = await freePortRun(2);
    // 1 500 members and their e-mail postings: a DynamoDB Local of its own, shared with no other file.
    const npm = runNpm(npmStartArgsOn(await streamEndpoint({ alone: true }), port, uniqueTableName('large'), '--config', config));
    started.push(npm);
    let stderr = '';
    npm.child.stderr!.on('data', (chunk: Buffer) => void (stderr += String(chunk)));

    const output = await npm.waitFor('Press Ctrl-C');

    const lines = stderr.split('\n').filter((line) => line.startsWith('shop large: '));
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines.slice(0, -1)) {
      expect(line).toMatch(
        /^shop large: \d+\/1500 members \((time left not known yet|[\d.]+ members\/s, (\d+ h )?(\d+ min )?\d+ (s|min) left)\)$/,
      );
    }
    expect(lines.at(-1)).toMatch(/^shop large: 1500\/1500 members \([\d.]+ members\/s, (\d+ h )?(\d+ min )?\d+ (s|min) in all\)$/);
    // The lines come before the ready line, which says what was loaded.
    expect(output.indexOf('shop large: 1500/1500 members')).toBeLessThan(output.indexOf('Loyalty API listening on'));
    expect(output).toContain('Shop large: 1500 members imported, 0 kept');
    process.kill(npm.pid, 'SIGTERM');
    expect(await npm.exited).toBe(0);
  });
});
