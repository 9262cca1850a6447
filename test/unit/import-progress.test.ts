// Progress on stderr (shared/runtime/progress.ts), as `loyalty import`, `loyalty config apply` and the
// twin's start show it: done of total, the rate and the time left. A bar redrawn in place on a
// terminal, ending with a newline at the last row; plain lines otherwise, one per tenth of the rows, one
// at least every interval and one at the end. The clock is a counter the test moves: nothing sleeps.
import { memberProgressOf, progressOf } from '../../infra/cli/main';
import { formatDuration, progressReporter } from '../../shared/runtime/progress';

/** A clock the test sets; milliseconds. */
function testClock(start = 0) {
  let at = start;
  return { now: () => at, set: (ms: number) => void (at = ms) };
}

function recorder(errIsTty = false) {
  const lines: string[] = [];
  const written: string[] = [];
  return {
    lines,
    written,
    io: {
      out: () => undefined,
      err: (line: string) => void lines.push(line),
      errIsTty,
      errWrite: (text: string) => void written.push(text),
    },
  };
}

describe("the import's progress", () => {
  it('draws a bar in place on a terminal, with the rate and the time left, and ends its line at the last row', () => {
    const { io, lines, written } = recorder(true);
    const clock = testClock();
    const progress = progressOf(io, { now: clock.now });
    progress(0, 4);
    clock.set(2_000);
    progress(2, 4);
    clock.set(4_000);
    progress(4, 4);
    expect(lines).toEqual([]);
    expect(written).toEqual([
      `\r[${'.'.repeat(30)}] 0/4 rows, time left not known yet`,
      `\r[${'#'.repeat(15)}${'.'.repeat(15)}] 2/4 rows, 1.0 rows/s, 2 s left`,
      `\r[${'#'.repeat(30)}] 4/4 rows, 1.0 rows/s, 4 s in all\n`,
    ]);
  });

  it('prints plain lines elsewhere: one per tenth of the rows and the last, each with the rate and the time left', () => {
    const { io, lines, written } = recorder(false);
    const clock = testClock();
    const progress = progressOf(io, { now: clock.now });
    for (let done = 1; done <= 100; done += 1) {
      clock.set(done * 100); // 10 rows a second
      progress(done, 100);
    }
    expect(written).toEqual([]);
    expect(lines).toEqual([
      ...Array.from({ length: 9 }, (_, i) => `progress: ${(i + 1) * 10}/100 rows (10 rows/s, ${9 - i} s left)`),
      'progress: 100/100 rows (10 rows/s, 10 s in all)',
    ]);
  });

  it('prints a line at least every interval between tenths, and a start line at 0', () => {
    const { io, lines } = recorder(false);
    const clock = testClock();
    const progress = progressOf(io, { now: clock.now, intervalMs: 5_000 });
    progress(0, 20_000);
    clock.set(4_000);
    progress(100, 20_000);
    clock.set(5_000);
    progress(150, 20_000);
    clock.set(9_000);
    progress(200, 20_000);
    clock.set(10_000);
    progress(250, 20_000);
    expect(lines).toEqual([
      'progress: 0/20000 rows (time left not known yet)',
      'progress: 150/20000 rows (30 rows/s, 11 min 02 s left)',
      'progress: 250/20000 rows (25 rows/s, 13 min 10 s left)',
    ]);
  });

  it('writes durations as seconds, minutes and hours', () => {
    expect([0.4, 42, 60, 189, 3599, 3600, 3_900, 90_000].map(formatDuration)).toEqual([
      '0 s',
      '42 s',
      '1 min 00 s',
      '3 min 09 s',
      '59 min 59 s',
      '1 h 00 min',
      '1 h 05 min',
      '25 h 00 min',
    ]);
  });
});

describe("a configuration file's members (config apply, the twin's start)", () => {
  it('stays quiet for its first second, then shows each shop apart: members of how many, rate, time left', () => {
    const { io, lines } = recorder(false);
    const clock = testClock(50_000);
    const progress = memberProgressOf(io, { now: clock.now });
    progress('big', 0, 1_000);
    clock.set(50_500);
    progress('big', 50, 1_000);
    clock.set(51_000);
    progress('big', 100, 1_000);
    clock.set(55_000);
    progress('big', 500, 1_000);
    progress('small', 0, 3); // another shop: its own reporter, its own quiet second
    clock.set(55_200);
    progress('small', 3, 3);
    clock.set(60_000);
    progress('big', 1_000, 1_000);
    expect(lines).toEqual([
      'shop big: 100/1000 members (100 members/s, 9 s left)',
      'shop big: 500/1000 members (100 members/s, 5 s left)',
      'shop big: 1000/1000 members (100 members/s, 10 s in all)',
    ]);
  });

  it('shows nothing for members loaded within the quiet second, even when the last chunk ends after it', () => {
    const { io, lines, written } = recorder(true);
    const clock = testClock();
    const progress = progressReporter(
      { line: io.err, isTty: true, write: io.errWrite },
      { now: clock.now, quietMs: 1_000, unit: 'members', label: 'shop s' },
    );
    progress(0, 50);
    clock.set(1_500);
    progress(50, 50);
    expect([...lines, ...written]).toEqual([]);
  });
});
