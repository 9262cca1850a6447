// The sections of `npm run bench` without --only: which run by default, which are heavy and run only
// behind their flags (docs/performance.md#what-the-bench-measures), and how long each took, printed on
// stderr as each ends and written to bench/results.json. Pure: the plan is a function of the flags,
// and the timer's clock is a parameter, so a test checks both without running the bench.

/** Shop sizes of the customer list (`list-by-shop-size N`). */
export const LIST_SIZES = [1_000, 10_000, 100_000] as const;
/** Without --max-members: the list at 1 000 members; --max-members 10000 adds 10 000, --full (or --max-members 100000) 100 000 too. */
export const DEFAULT_MAX_MEMBERS = 1_000;
export const FULL_MAX_MEMBERS = 100_000;
/** Without --jobs-members: the scheduled jobs over 1 000 members; --full adds 10 000. */
export const DEFAULT_JOB_SIZES = [1_000] as const;
export const FULL_JOB_SIZES = [1_000, 10_000] as const;

/** The sections the default run leaves out, each with the flag that runs it and what it runs. */
export const HEAVY_SECTIONS = [
  {
    section: 'list-by-shop-size 10000',
    flag: '--max-members 10000',
    runs: 'the customer list and its e-mail searches at 10 000 members, page 500 included, and the searches as they were before the e-mail index (seeding 10 000 members and their 210 000 e-mail postings first)',
  },
  {
    section: 'list-by-shop-size 100000',
    flag: '--max-members 100000',
    runs: 'the customer list and its e-mail searches at 100 000 members (seeding 100 000 members and their 2.1 million e-mail postings)',
  },
  {
    section: 'jobs 10000',
    flag: '--jobs-members 1000,10000',
    runs: 'every scheduled job twice over a 10 000-member shop (50 000 items seeded)',
  },
] as const;

export interface BenchFlags {
  /** --url: a running twin, so the sections that need a twin of the bench's own are left out. */
  url?: string;
  'max-members'?: string;
  'min-members'?: string;
  'jobs-members'?: string;
  /** Every heavy section as well: what `npm run bench` ran before the default was cut to 10 minutes. */
  full?: boolean;
  /** A section run alone keeps the full sizes (`--only jobs` is the jobs at 1 000 and 10 000 members). */
  only?: string;
  'skip-bundles'?: boolean;
  'skip-storefront'?: boolean;
  'skip-klaviyo'?: boolean;
  'skip-figures'?: boolean;
  'skip-flood'?: boolean;
  'skip-burst'?: boolean;
  'skip-jobs'?: boolean;
  'skip-events'?: boolean;
  'skip-write-cost'?: boolean;
}

/** The list's shop sizes and the jobs' shop sizes the flags ask for. */
export function benchSizes(flags: BenchFlags): { scales: number[]; jobSizes: number[] } {
  const full = flags.full === true || flags.only !== undefined;
  const min = Number(flags['min-members'] ?? 0);
  const max = Number(flags['max-members'] ?? (full || min > DEFAULT_MAX_MEMBERS ? FULL_MAX_MEMBERS : DEFAULT_MAX_MEMBERS));
  const jobs = flags['jobs-members'] ?? (full ? FULL_JOB_SIZES : DEFAULT_JOB_SIZES).join(',');
  return {
    scales: LIST_SIZES.filter((n) => n <= max && n >= min),
    jobSizes: jobs.split(',').map(Number),
  };
}

/** The sections a run without --only goes through, in order. */
export function sectionPlan(flags: BenchFlags): string[] {
  const ownTwin = flags.url === undefined;
  const { scales, jobSizes } = benchSizes(flags);
  return [
    'endpoints',
    ...(ownTwin ? ['get-item-ratio', 'in-process', ...scales.map((n) => `list-by-shop-size ${n}`)] : []),
    ...(flags['skip-bundles'] ? [] : ['bundles']),
    ...(ownTwin && !flags['skip-storefront'] ? ['storefront'] : []),
    ...(ownTwin && !flags['skip-klaviyo'] ? ['klaviyo'] : []),
    ...(ownTwin && !flags['skip-figures'] ? ['figures'] : []),
    ...(ownTwin && !flags['skip-flood'] ? ['key-flood'] : []),
    ...(ownTwin && !flags['skip-burst'] ? ['webhook-burst'] : []),
    ...(flags['skip-jobs'] ? [] : jobSizes.map((n) => `jobs ${n}`)),
    // A twin of its own in the bench's process: last, so the environment it sets reaches no other section.
    ...(flags['skip-events'] ? [] : ['event-delivery']),
    // Every write path once on a twin of its own in the bench's process, with the clock moved for the jobs.
    ...(flags['skip-write-cost'] ? [] : ['write-cost']),
  ];
}

export interface SectionTiming {
  section: string;
  seconds: number;
}

/**
 * Times sections: `run` measures one and prints `section NAME: S s` when it ends (failed or not);
 * `summary` gives the lines of the whole run, each section and the total.
 */
export function sectionTimer(print: (line: string) => void, now: () => number = () => performance.now()) {
  const timings: SectionTiming[] = [];
  return {
    timings,
    async run<T>(section: string, work: () => Promise<T>): Promise<T> {
      const started = now();
      try {
        return await work();
      } finally {
        const seconds = (now() - started) / 1000;
        timings.push({ section, seconds });
        print(`section ${section}: ${seconds.toFixed(1)} s`);
      }
    },
    summary(): string[] {
      const width = Math.max(7, ...timings.map((timing) => timing.section.length));
      const total = timings.reduce((sum, timing) => sum + timing.seconds, 0);
      return [
        `${'section'.padEnd(width)}  seconds`,
        ...timings.map((timing) => `${timing.section.padEnd(width)}  ${timing.seconds.toFixed(1).padStart(7)}`),
        `${'total'.padEnd(width)}  ${total.toFixed(1).padStart(7)}`,
      ];
    },
  };
}
