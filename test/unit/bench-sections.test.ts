// `npm run bench` without options: the heavy sections are left out unless their flags (or --full) ask for
// them, and every section's time is reported. Checked on the plan and the timer alone: no bench runs.
import { HEAVY_SECTIONS, sectionPlan, sectionTimer } from '../../bench/sections';

describe('the default bench', () => {
  it('leaves every heavy section out and keeps a section of each kind', () => {
    const plan = sectionPlan({});

    expect(plan.filter((section) => HEAVY_SECTIONS.some((heavy) => heavy.section === section))).toEqual([]);
    expect(plan).toEqual([
      'endpoints',
      'get-item-ratio',
      'in-process',
      'list-by-shop-size 1000',
      'bundles',
      'storefront',
      'klaviyo',
      'figures',
      'key-flood',
      'webhook-burst',
      'jobs 1000',
      'event-delivery',
      'write-cost',
    ]);
  });

  it('runs each heavy section behind the flag docs/performance.md names for it, and all of them with --full', () => {
    for (const heavy of HEAVY_SECTIONS) {
      const [name, value] = heavy.flag.replace(/^--/, '').split(' ') as [string, string];
      expect(sectionPlan({ [name]: value })).toContain(heavy.section);
    }
    const full = sectionPlan({ full: true });
    for (const heavy of HEAVY_SECTIONS) expect(full).toContain(heavy.section);
    expect(full).toEqual(expect.arrayContaining(sectionPlan({})));
  });

  it('prints how long each section took as it ends, failed ones included, and sums them up', async () => {
    let at = 0;
    const lines: string[] = [];
    const timer = sectionTimer(
      (line) => lines.push(line),
      () => at,
    );

    expect(
      await timer.run('endpoints', async () => {
        at += 95_400;
        return 'rows';
      }),
    ).toBe('rows');
    await expect(
      timer.run('jobs 1000', async () => {
        at += 61_000;
        throw new Error('seeding failed');
      }),
    ).rejects.toThrow('seeding failed');

    expect(lines).toEqual(['section endpoints: 95.4 s', 'section jobs 1000: 61.0 s']);
    expect(timer.timings).toEqual([
      { section: 'endpoints', seconds: 95.4 },
      { section: 'jobs 1000', seconds: 61 },
    ]);
    expect(timer.summary()).toEqual(['section    seconds', 'endpoints     95.4', 'jobs 1000     61.0', 'total        156.4']);
  });
});
