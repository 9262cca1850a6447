// The running invocation's deadline: when a Lambda function will be stopped (its context's remaining
// time, taken when the invocation starts). Work that waits on something outside (a platform call and its
// retries) stays within it, so a function ends cleanly, with its compensations done, before it is cut off.
// Kept per asynchronous context, not per process: the twin runs many invocations in one process. It is
// real time, like every timeout; the domain clock is not read here.
import { AsyncLocalStorage } from 'node:async_hooks';

interface Invocation {
  /** Epoch milliseconds (real time) at which the function is stopped. */
  deadline: number;
}

const current = new AsyncLocalStorage<Invocation>();

/** Runs `work` as an invocation that is stopped `remainingMs` from now. */
export function withInvocationDeadline<T>(remainingMs: number, work: () => Promise<T>): Promise<T> {
  return current.run({ deadline: Date.now() + Math.max(0, remainingMs) }, work);
}

/** Milliseconds left before the running invocation is stopped; undefined outside one (tests, scripts). */
export function invocationRemainingMs(): number | undefined {
  const invocation = current.getStore();
  return invocation === undefined ? undefined : Math.max(0, invocation.deadline - Date.now());
}
