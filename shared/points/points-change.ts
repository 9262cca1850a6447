// Pure arithmetic of manual points adjustments: one adjustment as a points move of the member (floor at
// zero, lifetime points on additions if asked, the tier and its event: member-points.ts), and a member's
// queue of adjustments applied in order as one commit.
import type { AdjustmentReceipt, CustomerRecord, QueuedAdjustment } from '../domain/customer';
import type { TierChangedEvent } from '../domain/events';
import { approvedEntry, type EarningEntry } from '../domain/history';
import { movePoints } from '../domain/member-points';
import { giveBatches, withActivity } from '../domain/points-ledger';
import type { EarningSettings, VipSettings, VipTier } from '../domain/shop';

export interface PointsChangeRequest {
  adjustment: number;
  update_lifetime_points: boolean;
  /** The `send_email` of the adjustment's events. */
  send_email: boolean;
}

export interface PointsChange {
  /** What was actually applied: -5 when -20 was asked of a balance of 5. */
  applied: number;
  before: number;
  after: number;
  next: CustomerRecord;
  tierBefore: VipTier | null;
  tierAfter: VipTier | null;
  /** `tier.changed` when the adjustment took the member to another tier. */
  tierEvents: TierChangedEvent[];
}

export function computePointsChange(
  record: CustomerRecord,
  request: PointsChangeRequest,
  tiers: readonly VipTier[],
  vipSettings: VipSettings,
  now: string,
): PointsChange {
  // Only additions count towards lifetime points; a deduction never lowers them.
  const move = movePoints(
    record,
    {
      points: request.adjustment,
      lifetime: request.update_lifetime_points ? 'gain' : 0,
      send_email: request.send_email,
      now,
    },
    { tiers, vipSettings },
  );
  return {
    applied: move.applied,
    before: record.current_points,
    after: move.next.current_points,
    tierBefore: move.tierBefore,
    tierAfter: move.tierAfter,
    tierEvents: move.events,
    next: move.next,
  };
}

/** The `action` of the earning-history entry a manual adjustment writes. */
export const MANUAL_ADJUSTMENT_ACTION = 'manual_adjustment';

/** An adjustment's audit entry: an approved earning entry with the request's details kept on it (never served). */
export type AdjustmentEntry = EarningEntry & {
  note: string | null;
  requested_adjustment: number;
  update_lifetime_points: boolean;
  send_email: boolean;
  /** The balance before and after it: what its writer answers when the entry is all that is left to read. */
  points_before: number;
  points_after: number;
  batch_offset?: number;
};

/** One queued adjustment as a commit applies it, in queue order. */
export interface AppliedAdjustment {
  request: QueuedAdjustment;
  change: PointsChange;
  entry: AdjustmentEntry;
}

/** What one commit of a member's queue writes. */
export interface QueueCommit {
  /** The profile after every applied adjustment. */
  next: CustomerRecord;
  applied: AppliedAdjustment[];
  /** How many requests leave the head of the queue: the applied ones and the dropped ones. */
  removed: number;
  /** Ids that leave the queue without being applied: abandoned (older than `staleBefore`), applied already, or copies. */
  dropped: string[];
}

export interface QueueCommitSettings {
  tiers: readonly VipTier[];
  vipSettings: VipSettings;
  earningSettings: EarningSettings;
  /** A request accepted before this instant has no writer waiting for it any more: dropped, never applied. */
  staleBefore: string;
  /** Requests whose entry exists already: dropped, never applied twice. */
  alreadyApplied?: ReadonlySet<string>;
}

/**
 * Applies `queue` (the member's queue as read, or its first requests) to `record` one request after the
 * other, in order, as if each had been written alone: each sees the balance the one before left (floor at
 * zero, lifetime points, tier), a positive one becomes a batch at the end of the line, and earning or
 * spending counts as activity at the request's own time (points-ledger.ts).
 */
export function commitOfQueue(record: CustomerRecord, queue: readonly QueuedAdjustment[], settings: QueueCommitSettings): QueueCommit {
  let current = record;
  const applied: AppliedAdjustment[] = [];
  const dropped: string[] = [];
  const seen = new Set<string>();
  for (const request of queue) {
    // A second copy (an enqueue whose answer was lost and that the SDK sent again) is never applied twice.
    if (request.at < settings.staleBefore || settings.alreadyApplied?.has(request.id) || seen.has(request.id)) {
      dropped.push(request.id);
      continue;
    }
    seen.add(request.id);
    const change = computePointsChange(current, request, settings.tiers, settings.vipSettings, request.at);
    const entry: AdjustmentEntry = {
      ...approvedEntry(
        {
          id: request.id,
          earning_rule_id: null,
          action: MANUAL_ADJUSTMENT_ACTION,
          points: change.applied,
          base_points: change.applied,
          points_multiplier: 1,
        },
        request.at,
      ),
      // Audit details: kept on the entry, not part of the history API's fields.
      note: request.note,
      requested_adjustment: request.adjustment,
      update_lifetime_points: request.update_lifetime_points,
      send_email: request.send_email,
      points_before: change.before,
      points_after: change.after,
      // Who, when staff made it (served on /admin/api only, kept in the table and the customer's data export).
      ...(request.actor ? { actor: request.actor } : {}),
    };
    // A positive adjustment is a batch of its own; a negative one is spending (points-ledger.ts).
    if (change.applied > 0) {
      const ledger = giveBatches(current, change.next, [entry], settings.earningSettings, request.at);
      current = ledger.record;
      applied.push({ request, change, entry: ledger.entries[0]! });
    } else {
      current = change.applied < 0 ? withActivity(change.next, settings.earningSettings, request.at) : change.next;
      applied.push({ request, change, entry });
    }
  }
  return { next: current, applied, removed: queue.length, dropped };
}

/** The receipts of a commit: what each applied adjustment did, for the writers still waiting for it. */
export function receiptsOf(commit: QueueCommit): AdjustmentReceipt[] {
  return commit.applied.map(({ request, change }) => ({
    id: request.id,
    applied: change.applied,
    before: change.before,
    after: change.after,
  }));
}
