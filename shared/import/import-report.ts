// The report every import and undo prints (docs/migrate.md, "Running an import"): the counts, the skipped
// rows by reason with their line numbers, the named tiers that do not match, the points before and after.
import type { SkippedRow, SkipReason } from './import-row';
import type { TierMismatch } from './member-import';

export interface ImportReport {
  importId: string;
  dryRun: boolean;
  mode: 'add' | 'set';
  rowsRead: number;
  matchedById: number;
  matchedByEmail: number;
  created: number;
  updated: number;
  /** Members this import had already written (an earlier run of the same file and options). */
  unchanged: number;
  skipped: SkippedRow[];
  /** Points that were pending in the other app, added as approved. */
  pendingPoints: number;
  tierMismatches: TierMismatch[];
  /** Sum of the matched members' balances before the run and after it. */
  pointsBefore: number;
  pointsAfter: number;
  seconds: number;
}

const SKIP_REASONS: readonly SkipReason[] = ['unreadable', 'no_identifier', 'no_customer', 'ambiguous', 'duplicate', 'erased'];

const SKIP_NAMES: Record<SkipReason, string> = {
  unreadable: 'unreadable value',
  no_identifier: 'no id or e-mail',
  no_customer: 'no platform customer',
  ambiguous: 'e-mail of several customers',
  duplicate: 'id or e-mail on several rows',
  erased: 'erased by the platform',
};

/** One figure of a report: its label padded so the figures line up. */
const field = (label: string, value: string) => `  ${`${label}:`.padEnd(34)} ${value}`;

/** Lines listed per skip reason and for tier mismatches before "and N more". */
export const LISTED_LINES = 50;

export function importReportLines(report: ImportReport): string[] {
  const lines: string[] = [];
  const would = report.dryRun ? 'would be ' : '';
  lines.push(
    report.dryRun ? `Dry run: nothing written (import id ${report.importId}, mode ${report.mode})` : `Import (mode ${report.mode})`,
  );
  lines.push(field(`rows read`, `${report.rowsRead}`));
  lines.push(field(`matched by id`, `${report.matchedById}`));
  lines.push(field(`matched by e-mail`, `${report.matchedByEmail}`));
  lines.push(field(`members ${would}created`, `${report.created}`));
  lines.push(field(`members ${would}updated`, `${report.updated}`));
  lines.push(field(`unchanged (already imported)`, `${report.unchanged}`));
  lines.push(field(`skipped`, `${report.skipped.length}`));
  for (const reason of SKIP_REASONS) {
    const rows = report.skipped.filter((row) => row.reason === reason).sort((a, b) => a.line - b.line);
    if (rows.length === 0) continue;
    lines.push(`    ${reason} (${SKIP_NAMES[reason]}): ${rows.length}`);
    for (const row of rows.slice(0, LISTED_LINES)) lines.push(`      line ${row.line}: ${row.detail}`);
    if (rows.length > LISTED_LINES) lines.push(`      ... and ${rows.length - LISTED_LINES} more`);
  }
  lines.push(field(`pending points added as approved`, `${report.pendingPoints}`));
  lines.push(field(`named tiers that do not match`, `${report.tierMismatches.length}`));
  const mismatches = [...report.tierMismatches].sort((a, b) => a.line - b.line);
  for (const mismatch of mismatches.slice(0, LISTED_LINES)) {
    lines.push(
      `      line ${mismatch.line}: customer ${mismatch.customerId} named '${mismatch.named}', computed ${mismatch.computed === null ? 'no tier' : `'${mismatch.computed}'`}`,
    );
  }
  if (mismatches.length > LISTED_LINES) lines.push(`      ... and ${mismatches.length - LISTED_LINES} more`);
  lines.push(field(`points before`, `${report.pointsBefore}`));
  lines.push(field(`points after`, `${report.pointsAfter}${report.dryRun ? ' (if imported)' : ''}`));
  const rate = report.seconds > 0 ? Math.round((report.matchedById + report.matchedByEmail) / report.seconds) : 0;
  lines.push(field(`time`, `${report.seconds.toFixed(1)} s (${rate} rows/s)`));
  return lines;
}

export interface UndoReport {
  importId: string;
  removed: number;
  restored: number;
  /** Points this run took back (members an earlier run took back are not counted again). */
  pointsTakenBack: number;
  shortfalls: Array<{ customerId: string; points: number }>;
  /** Values the import set that changed since, kept as they are: per member, the field names. */
  kept: Array<{ customerId: string; fields: string[] }>;
  /** Members the import created that changed since: kept, their imported points taken back. */
  keptCreated: string[];
  /** Members gone since the import (erased or merged away). */
  gone: number;
  seconds: number;
}

export function undoReportLines(report: UndoReport): string[] {
  const lines = [`Undo of import ${report.importId}`];
  lines.push(field(`members removed (created by the import)`, `${report.removed}`));
  lines.push(field(`members restored`, `${report.restored}`));
  lines.push(field(`points taken back`, `${report.pointsTakenBack}`));
  const short = report.shortfalls.reduce((sum, item) => sum + item.points, 0);
  lines.push(field(`points already spent, not taken back`, `${short} (${report.shortfalls.length} members)`));
  for (const item of report.shortfalls.slice(0, LISTED_LINES)) lines.push(`      customer ${item.customerId}: ${item.points}`);
  if (report.shortfalls.length > LISTED_LINES) lines.push(`      ... and ${report.shortfalls.length - LISTED_LINES} more`);
  if (report.keptCreated.length > 0) {
    lines.push(field(`created by the import and changed since, kept`, `${report.keptCreated.length}`));
    for (const id of report.keptCreated.slice(0, LISTED_LINES)) lines.push(`      customer ${id}`);
  }
  if (report.kept.length > 0) {
    lines.push(field(`values changed since the import, kept`, `${report.kept.length} members`));
    for (const item of report.kept.slice(0, LISTED_LINES)) lines.push(`      customer ${item.customerId}: ${item.fields.join(', ')}`);
  }
  if (report.gone > 0) lines.push(field(`members gone since the import (erased or merged)`, `${report.gone}`));
  lines.push(field(`time`, `${report.seconds.toFixed(1)} s`));
  return lines;
}
