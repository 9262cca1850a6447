// Who a staff route's request acts for (SURFACES-CONTRACT.md: every write through /admin/api records who did
// it): set around the handler's work by the endpoint, read by the one commit path (shared/data/commit.ts), which
// adds the audit item to each transaction the request commits. Asynchronous context, so that requests served
// together in one process (the twin) never see each other's.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { StaffActor } from '../domain/history';

/** A staff request: who made it and which route (`POST /admin/api/v1/customers/{identifier}/points`). */
export interface StaffRequest {
  actor: StaffActor;
  request: string;
}

const current = new AsyncLocalStorage<StaffRequest>();

/** Runs `work` as the staff request's: every commit in it records `staff` as who made it. */
export function actingAs<T>(staff: StaffRequest, work: () => Promise<T>): Promise<T> {
  return current.run(staff, work);
}

/** The staff request the current work is for, or null (an API key's, a shopper's, a webhook's, a job's). */
export function actingStaff(): StaffRequest | null {
  return current.getStore() ?? null;
}
