// The due-work index's attributes (`gsi_due`): which job has work on an item and when. Each item module
// derives them from its item's own fields with these functions, for its puts and its updates alike.

/**
 * Kinds of scheduled work. A batch or an inactive balance waits in its `-remind` partition until its
 * reminder went out, then in its `-expire` partition; both are sorted by the expiry time itself, so
 * the expiry job finds a batch whose reminder never went out too, and the reminder job reads exactly
 * the batches expiring within the reminder window.
 */
export type DueKind = 'approval' | 'batch-remind' | 'batch-expire' | 'inactivity-remind' | 'inactivity-expire' | 'code' | 'birthday';

/** The due-work index's two attributes (`gsi_due`). */
export const DUE_ATTRIBUTES = ['due_pk', 'due_at'] as const;

export interface DueAttributes {
  due_pk: string;
  due_at: string;
}

/** Partition of the due-work index: one per shop and kind of scheduled work. */
export const duePartition = (shopId: string, kind: string) => `SHOP#${shopId}#DUE#${kind}`;

export const dueAttributes = (shopId: string, kind: DueKind, at: string, id: string): DueAttributes => ({
  due_pk: duePartition(shopId, kind),
  due_at: `${at}#${id}`,
});

/** The time part of a `due_at` (before the `#id`). */
export const dueTimeOf = (dueAt: string): string => dueAt.slice(0, dueAt.lastIndexOf('#'));

/** An update expression's part that keeps the due-work attributes as derived: set them, or remove them. */
export interface DueUpdate {
  /** `due_pk = :duePk, due_at = :dueAt`, or null when they are removed. */
  set: string | null;
  /** `due_pk, due_at`, or null when they are set. */
  remove: string | null;
  values: Record<string, string>;
}

export function dueUpdate(due: DueAttributes | null): DueUpdate {
  if (!due) return { set: null, remove: 'due_pk, due_at', values: {} };
  return { set: 'due_pk = :duePk, due_at = :dueAt', remove: null, values: { ':duePk': due.due_pk, ':dueAt': due.due_at } };
}

/**
 * The due-work part of an item module's update (items/update.ts) that leaves the item with `due`: both
 * attributes set, or both removed when nothing is due. Item modules pass it what their derive gives.
 */
export function dueChange(due: DueAttributes | null): { set: Partial<DueAttributes>; remove: string[] } {
  return due ? { set: { due_pk: due.due_pk, due_at: due.due_at }, remove: [] } : { set: {}, remove: [...DUE_ATTRIBUTES] };
}

/** The condition that the item is still in the due-work partition of `kind` (where the job read it). */
export const STILL_DUE = '#due_pk = :duePk';
export const stillDueValues = (shopId: string, kind: DueKind) => ({ ':duePk': duePartition(shopId, kind) });
