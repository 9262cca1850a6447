// How long a platform call may take inside the running invocation: what the function has left, minus
// the time kept for what follows a failed call (a purchase's refund, releasing its Idempotency-Key,
// the answer). Outside an invocation (tests, scripts) calls keep their own timeouts.
import { invocationRemainingMs } from '../runtime/invocation';

/** Kept back from the function's remaining time for the work after a platform call. */
export const FINISH_RESERVE_MS = 1500;
/** An attempt with less time than this left is not started. */
export const MIN_ATTEMPT_MS = 250;

/** Milliseconds a platform call may still take in this invocation (unbounded outside one). */
export function platformBudgetMs(): number {
  const remaining = invocationRemainingMs();
  return remaining === undefined ? Number.POSITIVE_INFINITY : remaining - FINISH_RESERVE_MS;
}

/** A per-attempt timeout cut to the invocation's budget. */
export function attemptTimeoutMs(timeoutMs: number): number {
  return Math.max(0, Math.min(timeoutMs, platformBudgetMs()));
}
