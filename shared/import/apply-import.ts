// The import's effects on the table (docs/migrate.md, "Running an import"): the matched rows a chunk at a
// time (one consistent BatchGetItem for the members' profiles and this import's records of them), then one
// transaction per member with bounded concurrency. A member this import already wrote is left alone
// ("unchanged"), so a second run changes nothing and a run stopped half-way continues where it stopped. A
// dry run reads the same and writes nothing. Each member's events commit with it, and start no e-mail (docs/decisions.md).
import { countCustomers } from '../data/customer-list';
import { deleteEmailPostings, putEmailPostings } from '../data/email-index-repository';
import { erasedCustomerIds } from '../data/erasure-repository';
import {
  type ImportedMemberState,
  putImportHeader,
  readImportState,
  readImportStates,
  writeImportedMember,
} from '../data/import-repository';
import { setShopCounters } from '../data/shop-repository';
import { type DomainEvent, memberFacts } from '../domain/events';
import { tierProgramOf } from '../domain/member-points';
import { generateReferralCode } from '../domain/referral';
import { DEFAULT_EARNING_SETTINGS, type ShopCatalog } from '../domain/shop';
import { nowIso } from '../runtime/clock';
import { forEachChunk } from '../runtime/chunks';
import { CONTENTION_BACKOFF, retryUntil } from '../runtime/retry';
import type { ImportMode, ImportSource, MatchedRow, SkippedRow } from './import-row';
import type { ImportReport } from './import-report';
import { type MemberPlan, type PlanContext, planMember, type TierMismatch } from './member-import';

/** Members read at once: 50 profiles and 50 records, one BatchGetItem of 100 keys. */
export const IMPORT_CHUNK = 50;
/** Chunks, so transactions, in flight at once by default (docs/performance.md#import). */
export const DEFAULT_IMPORT_CONCURRENCY = 32;
/** Tries of one member's write against other writers of the same member before the import gives up. */
const MEMBER_ATTEMPTS = 20;

export interface ApplyImportOptions {
  shopId: string;
  catalog: ShopCatalog;
  importId: string;
  from: ImportSource;
  mode: ImportMode;
  fileName: string;
  dryRun: boolean;
  concurrency?: number;
  /** Called at the start (0) and after each chunk with the members done so far and the total. */
  onProgress?: (done: number, total: number) => void;
}

/** What the readers and the matching handed over. */
export interface ReadRows {
  rowsRead: number;
  matched: MatchedRow[];
  skipped: SkippedRow[];
}

/** One member's outcome in the report. */
type MemberOutcome =
  { kind: 'created' | 'updated'; plan: MemberPlan } | { kind: 'unchanged'; points: number } | { kind: 'erased'; skipped: SkippedRow };

/** A row whose customer the platform erased (customers/redact): an import never enrols them again. */
const erasedRow = (matched: MatchedRow): SkippedRow => ({
  line: matched.row.line,
  reason: 'erased',
  detail: `customer ${matched.customer.id} was erased by the platform (customers/redact); enrol them anew to import them`,
});

export async function applyImport(rows: ReadRows, options: ApplyImportOptions): Promise<ImportReport> {
  const started = Date.now();
  const now = nowIso();
  const { shopId, catalog, importId } = options;
  const context: PlanContext = {
    shopId,
    importId,
    mode: options.mode,
    program: tierProgramOf(catalog),
    settings: catalog.settings.earning_settings ?? DEFAULT_EARNING_SETTINGS,
    now,
    referralCode: generateReferralCode,
  };
  if (!options.dryRun) {
    await putImportHeader({
      shop_id: shopId,
      import_id: importId,
      from: options.from,
      mode: options.mode,
      file_name: options.fileName,
      started_at: now,
      undone_at: null,
    });
  }

  const outcomes: MemberOutcome[] = [];
  options.onProgress?.(0, rows.matched.length);
  await forEachChunk(
    rows.matched,
    {
      size: IMPORT_CHUNK,
      concurrency: options.concurrency ?? DEFAULT_IMPORT_CONCURRENCY,
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    },
    async (chunk) => {
      outcomes.push(...(await importChunk(chunk, context, options)));
    },
  );

  // Enrolments of the import do not touch the shop's counters (one item every transaction would
  // contend on): they are recounted once the members are in, as `config apply` does, and a re-run of
  // a stopped import recounts them too.
  if (!options.dryRun) await setShopCounters(shopId, await countCustomers(shopId));

  const written = outcomes.filter((outcome): outcome is Extract<MemberOutcome, { plan: MemberPlan }> => 'plan' in outcome);
  const counted = outcomes.filter((outcome): outcome is Exclude<MemberOutcome, { kind: 'erased' }> => outcome.kind !== 'erased');
  const pendingByCustomer = new Map(rows.matched.map((matched) => [matched.customer.id, matched.row.pendingPoints]));
  return {
    importId,
    dryRun: options.dryRun,
    mode: options.mode,
    rowsRead: rows.rowsRead,
    matchedById: rows.matched.filter((matched) => matched.matchedBy === 'id').length,
    matchedByEmail: rows.matched.filter((matched) => matched.matchedBy === 'email').length,
    created: outcomes.filter((outcome) => outcome.kind === 'created').length,
    updated: outcomes.filter((outcome) => outcome.kind === 'updated').length,
    unchanged: outcomes.filter((outcome) => outcome.kind === 'unchanged').length,
    skipped: [...rows.skipped, ...outcomes.flatMap((outcome) => (outcome.kind === 'erased' ? [outcome.skipped] : []))],
    pendingPoints: written.reduce((sum, outcome) => sum + (pendingByCustomer.get(outcome.plan.next.platform_customer_id) ?? 0), 0),
    tierMismatches: written.flatMap((outcome): TierMismatch[] => (outcome.plan.tierMismatch ? [outcome.plan.tierMismatch] : [])),
    pointsBefore: counted.reduce((sum, outcome) => sum + (outcome.kind === 'unchanged' ? outcome.points : outcome.plan.pointsBefore), 0),
    pointsAfter: counted.reduce((sum, outcome) => sum + (outcome.kind === 'unchanged' ? outcome.points : outcome.plan.pointsAfter), 0),
    seconds: (Date.now() - started) / 1000,
  };
}

/**
 * The member's events of the import, committed with it: `customer.enrolled` (source `import`) for a member
 * it enrols and `points.earned` for the entry it writes, each with the member as the import leaves it. They
 * never start an e-mail (`send_email: false`): the balance is the standing the member had in the other app.
 */
function importEvents(plan: MemberPlan, context: PlanContext): DomainEvent[] {
  const base = {
    shop_id: context.shopId,
    customer_id: plan.next.platform_customer_id,
    occurred_at: context.now,
    send_email: false,
    import_id: context.importId,
    ...memberFacts(plan.next, context.program.tiers),
  };
  return [
    ...(plan.created ? [{ type: 'customer.enrolled' as const, ...base, source: 'import', enrolled_at: plan.next.created_at }] : []),
    ...(plan.entry
      ? [
          {
            type: 'points.earned' as const,
            ...base,
            earning_history_entry_id: plan.entry.id,
            action: plan.entry.action,
            points: plan.entry.points,
            points_given_at: plan.entry.points_given_at,
          },
        ]
      : []),
  ];
}

/**
 * One member: nothing when this import's record of it exists; else its plan, written in one transaction,
 * planned again from the profile as it is now when another writer got there first.
 */
async function importMember(
  matched: MatchedRow,
  first: ImportedMemberState,
  context: PlanContext,
  dryRun: boolean,
): Promise<MemberOutcome> {
  let state = first;
  // The chunk put the postings of the members it found neither enrolled nor imported.
  let postingsWritten = !first.profile && !first.record;
  const outcome = await retryUntil(MEMBER_ATTEMPTS, CONTENTION_BACKOFF, async (attempt): Promise<MemberOutcome | undefined> => {
    if (attempt > 0) state = await readImportState(context.shopId, context.importId, matched.customer.id);
    if (state.record) return { kind: 'unchanged', points: state.profile?.record.current_points ?? 0 };
    const plan = planMember(matched, state.profile?.record ?? null, context);
    if (dryRun) return { kind: plan.created ? 'created' : 'updated', plan };
    if (plan.created && !postingsWritten) {
      // A member that was there when the chunk was read and is gone now: its postings first, as for any enrolment.
      await putEmailPostings(context.shopId, [{ customerId: matched.customer.id, email: matched.customer.email }]);
      postingsWritten = true;
    }
    const written = await writeImportedMember({
      shopId: context.shopId,
      importId: context.importId,
      current: state.profile,
      next: plan.next,
      entry: plan.entry,
      record: plan.record,
      events: importEvents(plan, context),
    });
    if (written === 'written') return { kind: plan.created ? 'created' : 'updated', plan };
    if (written === 'erased') {
      // Erased while the import ran: the postings put for the enrolment go too.
      if (postingsWritten) await deleteEmailPostings(context.shopId, matched.customer.id, matched.customer.email);
      return { kind: 'erased', skipped: erasedRow(matched) };
    }
    // Already imported (a run that stopped after its write), a profile that changed, or a referral code
    // drawn twice: read again and decide anew.
    return undefined;
  });
  if (!outcome)
    throw new Error(
      `Customer ${matched.customer.id} (line ${matched.row.line}) could not be written: other writes kept changing it; run the import again`,
    );
  return outcome;
}

/** One chunk of matched rows: their states read, the erased ones skipped, the new members' postings put, then each member. */
async function importChunk(
  chunk: readonly ReadRows['matched'][number][],
  context: PlanContext,
  options: ApplyImportOptions,
): Promise<MemberOutcome[]> {
  const { shopId, importId } = options;
  const states = await readImportStates(
    shopId,
    importId,
    chunk.map((matched) => matched.customer.id),
  );
  // Customers the platform erased are never enrolled by an import (their tombstone holds no personal data).
  const erased = await erasedCustomerIds(
    shopId,
    chunk.filter((matched) => !states.get(matched.customer.id)!.profile).map((matched) => matched.customer.id),
  );
  if (!options.dryRun) {
    // The postings of the members this chunk enrols, in batches before their transactions.
    const enrolled = chunk.filter((matched) => {
      const state = states.get(matched.customer.id)!;
      return !state.record && !state.profile && !erased.has(matched.customer.id);
    });
    await putEmailPostings(
      shopId,
      enrolled.map((matched) => ({ customerId: matched.customer.id, email: matched.customer.email })),
    );
  }
  const outcomes: MemberOutcome[] = [];
  for (const matched of chunk)
    outcomes.push(
      erased.has(matched.customer.id)
        ? { kind: 'erased', skipped: erasedRow(matched) }
        : await importMember(matched, states.get(matched.customer.id)!, context, options.dryRun),
    );
  return outcomes;
}
