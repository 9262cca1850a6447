// The few statistics the bench prints.

/** The p-th percentile of an ascending list (0 when empty). */
export const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** The median of an unsorted list. */
export const median = (values: readonly number[]): number =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

/** DynamoDB calls of every command together, from the counter's per-command figures. */
export const totalCalls = (calls: Readonly<Record<string, number | undefined>>): number =>
  Object.values(calls).reduce<number>((sum, n) => sum + (n ?? 0), 0);
