// The import's progress on stderr: a bar redrawn in place on a terminal, ending with a newline at the
// last row; plain lines otherwise, about one per tenth of the rows and one at the end.
import { progressOf } from '../../infra/cli/main';

describe("the import's progress", () => {
  it('draws a bar in place on a terminal and ends its line at the last row', () => {
    const written: string[] = [];
    const lines: string[] = [];
    const progress = progressOf({
      out: () => undefined,
      err: (line) => lines.push(line),
      errIsTty: true,
      errWrite: (text) => written.push(text),
    });
    progress(0, 4);
    progress(2, 4);
    progress(4, 4);
    expect(lines).toEqual([]);
    expect(written.map((text) => text.replace(/ \d+ rows\/s/, ' N rows/s'))).toEqual([
      `\r[${'.'.repeat(30)}] 0/4 rows, N rows/s`,
      `\r[${'#'.repeat(15)}${'.'.repeat(15)}] 2/4 rows, N rows/s`,
      `\r[${'#'.repeat(30)}] 4/4 rows, N rows/s\n`,
    ]);
  });

  it('prints plain lines elsewhere: one per tenth of the rows and the last', () => {
    const lines: string[] = [];
    const written: string[] = [];
    const progress = progressOf({
      out: () => undefined,
      err: (line) => lines.push(line),
      errIsTty: false,
      errWrite: (text) => written.push(text),
    });
    for (let done = 1; done <= 100; done += 1) progress(done, 100);
    expect(written).toEqual([]);
    expect(lines.map((line) => line.replace(/\(\d+ rows\/s\)/, '(N rows/s)'))).toEqual(
      Array.from({ length: 10 }, (_, i) => `progress: ${(i + 1) * 10}/100 rows (N rows/s)`),
    );
  });
});
