// The twin's runs of a scheduled job: one at a time, and the requests made during a run share the next one.
import { coalescedRuns } from '../../infra/local/coalesced-runs';

/** A job whose runs end when the test says, numbered from 1. */
function gatedJob() {
  const ends: Array<() => void> = [];
  let runs = 0;
  let active = 0;
  let maxActive = 0;
  const work = async () => {
    runs += 1;
    const run = runs;
    active += 1;
    maxActive = Math.max(maxActive, active);
    await new Promise<void>((resolve) => ends.push(resolve));
    active -= 1;
    return run;
  };
  return { work, end: () => ends.shift()!(), runs: () => runs, maxActive: () => maxActive };
}

const turns = () => new Promise((resolve) => setImmediate(resolve));

describe('coalesced job runs', () => {
  it('starts a run asked for during another once it ends, shared by every request made meanwhile', async () => {
    const job = gatedJob();
    const run = coalescedRuns(job.work);
    const first = run();
    const second = run();
    const third = run();
    await turns();
    expect(job.runs()).toBe(1);
    job.end();
    expect(await first).toBe(1);
    await turns();
    expect(job.runs()).toBe(2);
    job.end();
    expect([await second, await third]).toEqual([2, 2]);
    expect(job.maxActive()).toBe(1);
  });

  it('runs at once when nothing is running, and goes on after a failed run', async () => {
    let calls = 0;
    const run = coalescedRuns(async () => {
      calls += 1;
      if (calls === 1) throw new Error('failed');
      return calls;
    });
    await expect(run()).rejects.toThrow('failed');
    expect(await run()).toBe(2);
    expect(await run()).toBe(3);
  });
});
