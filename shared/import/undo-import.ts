// `import undo` (docs/migrate.md, "Undoing an import"): every record the import kept, shard by shard, each
// member taken back in one transaction that also deletes the record, so a stopped undo run again goes on
// with the members left and a finished one finds nothing to do. A member the import created and nothing
// changed since is removed with everything the import wrote for it; any other member gets the imported
// points taken back (what was spent since is reported, never taken) and the values the import set
// restored unless they changed since. Each member's `import.undone` event commits with its undo, so the
// program's figures count out what the undo took as they counted in what the import gave.
import { getCustomer } from '../data/customer-repository';
import { countCustomers } from '../data/customer-list';
import {
  forEachImportRecord,
  type ImportMemberRecord,
  markImportUndone,
  readImportHeader,
  undoImportedMember,
} from '../data/import-repository';
import { setShopCounters } from '../data/shop-repository';
import type { CustomerRecord } from '../domain/customer';
import { notFound } from '../domain/errors';
import { type DomainEvent, memberFacts } from '../domain/events';
import { tierProgramOf, type TierProgram } from '../domain/member-points';
import type { ShopCatalog } from '../domain/shop';
import { nowIso } from '../runtime/clock';
import { CONTENTION_BACKOFF, retryUntil } from '../runtime/retry';
import type { UndoReport } from './import-report';
import { DEFAULT_IMPORT_CONCURRENCY } from './apply-import';
import { planUndo } from './member-import';

const MEMBER_ATTEMPTS = 20;

export interface UndoImportOptions {
  shopId: string;
  catalog: ShopCatalog;
  importId: string;
  concurrency?: number;
  onProgress?: (done: number) => void;
}

export async function undoImport(options: UndoImportOptions): Promise<UndoReport> {
  const started = Date.now();
  const { shopId, importId } = options;
  const header = await readImportHeader(shopId, importId);
  if (!header) throw notFound(`No import ${importId} for shop ${shopId}: check the id the import printed (Import id: ...)`);
  const report: UndoReport = {
    importId,
    removed: 0,
    restored: 0,
    pointsTakenBack: 0,
    shortfalls: [],
    kept: [],
    keptCreated: [],
    gone: 0,
    seconds: 0,
  };
  const program = tierProgramOf(options.catalog);
  const now = nowIso();
  let done = 0;
  await forEachImportRecord(shopId, importId, async (records) => {
    let next = 0;
    const worker = async () => {
      for (let index = next++; index < records.length; index = next++) {
        await undoMember(shopId, importId, records[index]!, program, now, report);
        done += 1;
      }
    };
    await Promise.all(Array.from({ length: Math.min(options.concurrency ?? DEFAULT_IMPORT_CONCURRENCY, records.length) }, worker));
    options.onProgress?.(done);
  });
  await setShopCounters(shopId, await countCustomers(shopId));
  await markImportUndone(shopId, importId, now);
  report.seconds = (Date.now() - started) / 1000;
  return report;
}

async function undoMember(
  shopId: string,
  importId: string,
  record: ImportMemberRecord,
  program: TierProgram,
  now: string,
  report: UndoReport,
): Promise<void> {
  const customerId = record.customer_id;
  const finished = await retryUntil(MEMBER_ATTEMPTS, CONTENTION_BACKOFF, async (): Promise<true | undefined> => {
    const current = await getCustomer(shopId, customerId, true);
    if (!current) {
      const outcome = await undoImportedMember({
        kind: 'forget',
        shopId,
        importId,
        record,
        events: (entryRemoved) =>
          entryRemoved ? [undoneEvent({ shopId, importId, record, now, before: null, after: null, program })] : [],
      });
      if (outcome === 'written') report.gone += 1;
      return outcome === 'changed' ? undefined : true;
    }
    // Nothing wrote the member since the import enrolled it (and no adjustment waits in its queue).
    const untouched = current.version === record.version && (current.record.points_queue ?? []).length === 0;
    if (record.created && untouched) {
      const outcome = await undoImportedMember({
        kind: 'remove',
        shopId,
        importId,
        current,
        record,
        events: (entryRemoved) => [
          undoneEvent({ shopId, importId, record, now, before: current.record, after: null, program, entryRemoved }),
        ],
      });
      if (outcome === 'written') {
        report.removed += 1;
        report.pointsTakenBack += record.points;
      }
      return outcome === 'changed' ? undefined : true;
    }
    const plan = planUndo(current.record, record, program, now);
    const outcome = await undoImportedMember({
      kind: 'restore',
      shopId,
      importId,
      current,
      next: plan.next,
      record,
      events: (entryRemoved) => [
        undoneEvent({ shopId, importId, record, now, before: current.record, after: plan.next, program, entryRemoved }),
      ],
    });
    if (outcome === 'changed') return undefined;
    if (outcome === 'written') {
      report.restored += 1;
      report.pointsTakenBack += plan.restored;
      if (plan.shortfall > 0) report.shortfalls.push({ customerId, points: plan.shortfall });
      if (plan.kept.length > 0) report.kept.push({ customerId, fields: plan.kept });
      if (record.created) report.keptCreated.push(customerId);
    }
    return true;
  });
  if (!finished) throw new Error(`Customer ${customerId} could not be taken back: other writes kept changing it; run the undo again`);
}

/**
 * One member's `import.undone` (docs/events.md): the balance before and after, the import's entry that left
 * the history (its points, on the day it gave them; none when it was gone already), and for a member the
 * undo removed, its enrolment day and order count. `before` null: the member was gone already; `after`
 * null: the undo removed it (no member facts: there is no member). It never starts an e-mail.
 */
function undoneEvent(input: {
  shopId: string;
  importId: string;
  record: ImportMemberRecord;
  now: string;
  before: CustomerRecord | null;
  after: CustomerRecord | null;
  program: TierProgram;
  entryRemoved?: boolean;
}): DomainEvent {
  const { record, before, after } = input;
  const entryRemoved = input.entryRemoved ?? true;
  const removed = before !== null && after === null;
  return {
    type: 'import.undone',
    shop_id: input.shopId,
    customer_id: record.customer_id,
    occurred_at: input.now,
    send_email: false,
    notify: false,
    import_id: input.importId,
    removed,
    earning_history_entry_id: entryRemoved ? record.entry_id : null,
    action: 'import',
    points: entryRemoved ? record.points : 0,
    points_given_at: record.at,
    points_before: before?.current_points ?? 0,
    points_after: after?.current_points ?? 0,
    ...(removed ? { enrolled_at: before.created_at, orders_count: before.orders_count ?? 0 } : {}),
    ...(after ? memberFacts(after, input.program.tiers) : {}),
  };
}
