// Runs of one scheduled job in the twin, one at a time, as the stack's schedule gives them: each job's timeout
// is under its cadence, so EventBridge never starts a run while the last one is still going. A run asked for
// while one is in progress starts when that one ends, and every request made meanwhile shares that next run,
// so runs never pile up on the same work (overlapping order reconciliations all read from the same watermark).

export function coalescedRuns<T>(work: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | null = null;
  let next: Promise<T> | null = null;
  const start = (): Promise<T> => {
    const run = work().finally(() => {
      if (running === run) running = null;
    });
    running = run;
    return run;
  };
  return () => {
    if (!running && !next) return start();
    next ??= (running ?? Promise.resolve())
      .catch(() => undefined)
      .then(() => {
        next = null;
        return start();
      });
    return next;
  };
}
