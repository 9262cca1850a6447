// The domain's one clock: every "now" the domain reads (entries, purchases, campaigns, due dates,
// jobs) comes from here. In AWS it is the real time; the twin and tests may stop it at an instant
// (`PUT /_clock`) to move through days without waiting. Rate limits, timeouts, retries and caches keep
// real time and do not read this clock; an Idempotency-Key's records (their 24 hours, and a claim's
// in-progress expiry) do, so tests move past them.

let fixed: number | null = null;

export function now(): Date {
  return new Date(fixed ?? Date.now());
}

export function nowIso(): string {
  return now().toISOString();
}

/** Twin and tests only: hold the clock at `instant` until it is set again; null returns to real time. */
export function setClock(instant: Date | null): void {
  if (instant !== null && Number.isNaN(instant.getTime())) throw new RangeError('The clock cannot be set to an invalid date');
  fixed = instant === null ? null : instant.getTime();
}
