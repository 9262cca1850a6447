// The progress of a long operator run on stderr: done of total, the rate and the time left. On a
// terminal a bar redrawn in place, ending its line at the last one; elsewhere plain lines: one at the
// start (done 0), one per tenth of the total (at least every 10 000), one at least every `intervalMs`,
// and one at the end with the time it took. `loyalty import`, `loyalty config apply` and the twin's
// start (`npm start`) all report through this one module. It keeps real time, not the domain clock
// (which the twin may hold still); `now` is there for tests, which move it instead of sleeping.

/** Where the progress goes: `line` prints a line on stderr; `write` writes without a newline (the bar, on a terminal). */
export interface ProgressOutput {
  line: (text: string) => void;
  /** stderr is a terminal: draw a bar that rewrites its line. */
  isTty?: boolean;
  write?: (text: string) => void;
}

export interface ProgressOptions {
  /** What is counted: `rows`, `members`. */
  unit?: string;
  /** The start of each plain line, e.g. `progress` or `shop demo: members`. */
  label?: string;
  /** Milliseconds of real time; defaults to `performance.now`. */
  now?: () => number;
  /** A plain line at least this often (milliseconds of `now`), even between tenths. */
  intervalMs?: number;
  /**
   * Nothing is shown before this much time has passed (milliseconds of `now`; default 0), and the last
   * line only when an earlier one was: a run over before then prints nothing.
   */
  quietMs?: number;
}

/** Called with the units done so far and the total. */
export type Progress = (done: number, total: number) => void;

const BAR_WIDTH = 30;
const DEFAULT_INTERVAL_MS = 10_000;

/** `42 s`, `3 min 09 s`, `1 h 05 min`. */
export function formatDuration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  if (whole < 60) return `${whole} s`;
  if (whole < 3600) return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`;
  const minutes = Math.round(whole / 60);
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** A rate: whole units from 10 a second up, one decimal below (`0.4 members/s`, not `0`). */
function formatRate(perSecond: number): string {
  return perSecond >= 10 ? String(Math.round(perSecond)) : perSecond.toFixed(1);
}

/** The reporter of one run; the rate and the time left are measured from its creation. */
export function progressReporter(output: ProgressOutput, options: ProgressOptions = {}): Progress {
  const unit = options.unit ?? 'rows';
  const label = options.label ?? 'progress';
  const now = options.now ?? (() => performance.now());
  const intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS;
  const started = now();
  const quietMs = options.quietMs ?? 0;
  let shown = false;
  let reported = -1;
  let reportedAt = started;
  return (done, total) => {
    const at = now();
    if (!shown && (at - started < quietMs || (quietMs > 0 && done >= total))) return;
    const seconds = (at - started) / 1000;
    const rate = done / Math.max(0.001, seconds);
    const figures =
      done >= total
        ? `${formatRate(rate)} ${unit}/s, ${formatDuration(seconds)} in all`
        : done === 0
          ? 'time left not known yet'
          : `${formatRate(rate)} ${unit}/s, ${formatDuration((total - done) / rate)} left`;
    if (output.isTty && output.write) {
      const filled = total === 0 ? BAR_WIDTH : Math.round((Math.min(done, total) / total) * BAR_WIDTH);
      shown = true;
      output.write(
        `\r${label === 'progress' ? '' : `${label} `}[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${done}/${total} ${unit}, ${figures}${done >= total ? '\n' : ''}`,
      );
      return;
    }
    const step = Math.min(10_000, Math.max(1, Math.ceil(total / 10)));
    const due = done >= total || (done === 0 && reported < 0) || done - Math.max(0, reported) >= step || at - reportedAt >= intervalMs;
    // The first line after a quiet start comes at once.
    if (!(due || (!shown && quietMs > 0)) || done === reported) return;
    shown = true;
    reported = done;
    reportedAt = at;
    output.line(`${label}: ${done}/${total} ${unit} (${figures})`);
  };
}

/** Progress of work done shop by shop (a configuration file's members): one reporter per shop, made at its first call. */
export type ShopProgress = (shopId: string, done: number, total: number) => void;

export function progressByShop(reporterOf: (shopId: string) => Progress): ShopProgress {
  const reporters = new Map<string, Progress>();
  return (shopId, done, total) => {
    let reporter = reporters.get(shopId);
    if (!reporter) {
      reporter = reporterOf(shopId);
      reporters.set(shopId, reporter);
    }
    reporter(done, total);
  };
}

/** A shop's members load quietly for this long before their progress shows (a small file shows none). */
export const MEMBER_PROGRESS_QUIET_MS = 1_000;

/**
 * A configuration file's members, shop by shop (`loyalty config apply`, the twin's start):
 * `shop demo: 2000/20000 members (95 members/s, 3 min 09 s left)`, after a quiet first second.
 */
export function memberProgressByShop(output: ProgressOutput, options: Omit<ProgressOptions, 'unit' | 'label'> = {}): ShopProgress {
  return progressByShop((shopId) =>
    progressReporter(output, { quietMs: MEMBER_PROGRESS_QUIET_MS, ...options, unit: 'members', label: `shop ${shopId}` }),
  );
}
