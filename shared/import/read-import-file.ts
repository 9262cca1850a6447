// Reads another loyalty app's export (PROGRAM-CONTRACT.md, "Import a program from another app"): a CSV
// (comma or semicolon, found from the header line; UTF-8 with or without BOM; quoted fields; CRLF) or
// LoyaltyLion's JSON Lines API export, its columns found by header with the column map of the `--from`
// app (import-columns.ts). Every value is parsed, or its row is skipped as `unreadable` with the column
// and the value; line numbers are the file's own. Pure: no table, no platform.
import { parse } from 'csv-parse/sync';
import { COLUMN_MAPS, normalizeHeader, type ColumnMap, type ImportField } from './import-columns';
import { ImportFileError, type ImportRow, type ImportSource, type SkippedRow } from './import-row';
import {
  cellText,
  parseBirthday,
  parseCustomerId,
  parseEmail,
  parseFlag,
  parseOptionalPoints,
  parsePoints,
  parseState,
  parseTierName,
  parseTimestamp,
  UnreadableValue,
} from './import-values';

export interface ReadImportFile {
  rows: ImportRow[];
  skipped: SkippedRow[];
  /** Records in the file (rows and skipped rows together), header and empty lines not counted. */
  rowsRead: number;
}

/** One record whatever the format: a value per field, with the name the file gave its column. */
interface Record_ {
  line: number;
  values: Partial<Record<ImportField, { column: string; value: unknown }>>;
}

export function readImportFile(content: Buffer | string, from: ImportSource): ReadImportFile {
  const columns = COLUMN_MAPS[from];
  if (!columns) throw new ImportFileError(`Unknown --from '${String(from)}'`);
  const text = (typeof content === 'string' ? content : content.toString('utf8')).replace(/^\uFEFF/, '');
  if (text.includes('\u0000'))
    throw new ImportFileError(
      'The file is neither CSV nor JSON Lines: it holds binary data (is it a spreadsheet rather than its CSV export?)',
    );
  if (text.trim() === '') throw new ImportFileError('The file is empty');
  const records = /^\s*\{/.test(text) ? jsonRecords(text, columns) : csvRecords(text, columns);
  const rows: ImportRow[] = [];
  const skipped: SkippedRow[] = [];
  for (const record of records.records) {
    try {
      rows.push(rowOf(record));
    } catch (error) {
      if (!(error instanceof UnreadableValue)) throw error;
      skipped.push({ line: record.line, reason: 'unreadable', detail: error.message });
    }
  }
  return {
    rows,
    skipped: [...records.skipped, ...skipped].sort((a, b) => a.line - b.line),
    rowsRead: records.records.length + records.skipped.length,
  };
}

function rowOf(record: Record_): ImportRow {
  const read = <T>(field: ImportField, parse: (column: string, value: unknown) => T): T | null => {
    const found = record.values[field];
    return found === undefined ? null : parse(found.column, found.value);
  };
  const platformCustomerId = read('id', parseCustomerId);
  const email = read('email', parseEmail);
  const approved = read('points', parsePoints);
  const pending = read('pending', parseOptionalPoints) ?? 0;
  const spent = read('spent', parseOptionalPoints);
  const state = read('state', parseState);
  const blocked = read('blocked', parseFlag);
  const excludedFlag = read('excluded', parseFlag);
  // Not enrolled is not excluded (a customer who never joined may still earn here); the value is still checked.
  read('enrolled', parseFlag);
  const exclusions = [state, blocked, excludedFlag].filter((value): value is boolean => value !== null);
  return {
    line: record.line,
    platformCustomerId,
    email,
    points: (approved ?? 0) + pending,
    pendingPoints: pending,
    redeemedPoints: spent,
    dateOfBirth: read('birthday', parseBirthday),
    excluded: exclusions.length === 0 ? null : exclusions.some(Boolean),
    tierName: read('tier', (_column, value) => parseTierName(value)),
    enrolledAt: read('enrolledAt', parseTimestamp),
  };
}

/** The file must name an id or an e-mail, and the points. */
function requireColumns(found: ReadonlySet<ImportField>, names: string[], kind: string): void {
  const missing: string[] = [];
  if (!found.has('id') && !found.has('email')) missing.push('no customer id or e-mail column');
  if (!found.has('points')) missing.push('no points column');
  if (missing.length > 0) {
    const shown = names
      .slice(0, 20)
      .map((name) => `'${name}'`)
      .join(', ');
    throw new ImportFileError(
      `The ${kind} has ${missing.join(' and ')} (it has ${shown || 'none'}); docs/migrate.md lists the columns read`,
    );
  }
}

// --- CSV -----------------------------------------------------------------------------------------------

/** Comma or semicolon, whichever the header line (outside quotes) holds more of. */
function delimiterOf(headerLine: string): ',' | ';' {
  const unquoted = headerLine.replace(/"[^"]*"/g, '');
  const count = (char: string) => unquoted.split(char).length - 1;
  return count(';') > count(',') ? ';' : ',';
}

interface Parsed {
  record: string[];
  info: { lines: number };
  raw: string;
}

function csvRecords(text: string, columns: ColumnMap): { records: Record_[]; skipped: SkippedRow[] } {
  // One line break everywhere, so the parser's line count is the file's (a CRLF inside a quoted field
  // would otherwise count twice); no value the import reads holds a line break.
  const normalized = text.replace(/\r\n?/g, '\n');
  const delimiter = delimiterOf(normalized.slice(0, normalized.indexOf('\n') >>> 0));
  let parsed: Parsed[];
  try {
    parsed = parse(normalized, {
      delimiter,
      info: true,
      raw: true,
      relax_column_count: true,
      skip_empty_lines: true,
    }) as unknown as Parsed[];
  } catch (error) {
    const { lines, message } = error as { lines?: number; message?: string };
    throw new ImportFileError(
      `The file is not a readable CSV${lines ? ` (line ${lines})` : ''}: ${String(message ?? error).split(' at line')[0]}`,
    );
  }
  const [header, ...data] = parsed;
  if (!header) throw new ImportFileError('The file is empty');
  const headers = header.record.map((name) => name.trim());
  // Per field, the columns that name it in the order the app's map lists them.
  const byField = new Map<ImportField, number[]>();
  for (const [field, names] of Object.entries(columns) as Array<[ImportField, readonly string[]]>) {
    const indexes = names.flatMap((name) => headers.flatMap((header, index) => (normalizeHeader(header) === name ? [index] : [])));
    if (indexes.length > 0) byField.set(field, [...new Set(indexes)]);
  }
  requireColumns(new Set(byField.keys()), headers, 'header');

  const records: Record_[] = [];
  const skipped: SkippedRow[] = [];
  for (const { record, info, raw } of data) {
    const body = raw.replace(/^\n+/, '');
    const line = info.lines - ((body.match(/\n/g)?.length ?? 0) - (body.endsWith('\n') ? 1 : 0));
    if (record.every((cell) => cell.trim() === '')) continue;
    if (record.length > headers.length && record.slice(headers.length).some((cell) => cell.trim() !== '')) {
      skipped.push({
        line,
        reason: 'unreadable',
        detail: `the row has ${record.length} fields and the header ${headers.length}: is a value with a '${delimiter}' left unquoted?`,
      });
      continue;
    }
    const values: Record_['values'] = {};
    for (const [field, indexes] of byField) {
      // The first of the field's columns that is not empty in this row.
      const index = indexes.find((candidate) => cellText(record[candidate]) !== null) ?? indexes[0]!;
      values[field] = { column: headers[index]!, value: record[index] ?? '' };
    }
    records.push({ line, values });
  }
  return { records, skipped };
}

// --- JSON Lines ----------------------------------------------------------------------------------------

/** LoyaltyLion's nested tier: `loyalty_tier_membership.loyalty_tier.name` (v2) or `tier_membership` (headless). */
function flatten(object: Record<string, unknown>): Record<string, unknown> {
  const flat: Record<string, unknown> = { ...object };
  const membership = object.loyalty_tier_membership as { loyalty_tier?: { name?: unknown } } | null | undefined;
  if (membership && typeof membership === 'object' && flat.tier === undefined) flat.tier = membership.loyalty_tier?.name ?? null;
  return flat;
}

function jsonRecords(text: string, columns: ColumnMap): { records: Record_[]; skipped: SkippedRow[] } {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const objects: Array<{ line: number; object: Record<string, unknown> }> = [];
  const skipped: SkippedRow[] = [];
  lines.forEach((source, index) => {
    if (source.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(source);
    } catch {
      skipped.push({ line: index + 1, reason: 'unreadable', detail: `the line is not a JSON object: '${source.trim().slice(0, 60)}'` });
      return;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      skipped.push({ line: index + 1, reason: 'unreadable', detail: `the line is not a JSON object: '${source.trim().slice(0, 60)}'` });
      return;
    }
    objects.push({ line: index + 1, object: flatten(value as Record<string, unknown>) });
  });
  if (objects.length === 0) {
    throw new ImportFileError(
      "The file is neither CSV nor JSON Lines: no line holds a JSON object (LoyaltyLion's export gives one customer per line)",
    );
  }
  const keysOf = (object: Record<string, unknown>) => new Map(Object.keys(object).map((key) => [normalizeHeader(key), key]));
  const seen = new Set<string>();
  for (const { object } of objects) for (const key of Object.keys(object)) seen.add(key);
  const fieldsFound = new Set<ImportField>();
  const allKeys = keysOf(Object.fromEntries([...seen].map((key) => [key, true])));
  for (const [field, names] of Object.entries(columns) as Array<[ImportField, readonly string[]]>) {
    if (names.some((name) => allKeys.has(name))) fieldsFound.add(field);
  }
  requireColumns(fieldsFound, [...seen], 'file');
  const records = objects.map(({ line, object }) => {
    const keys = keysOf(object);
    const values: Record_['values'] = {};
    for (const [field, names] of Object.entries(columns) as Array<[ImportField, readonly string[]]>) {
      const present = names.map((name) => keys.get(name)).filter((key): key is string => key !== undefined);
      const key = present.find((candidate) => object[candidate] !== null && object[candidate] !== '') ?? present[0];
      if (key !== undefined) values[field] = { column: key, value: object[key] };
    }
    return { line, values };
  });
  return { records, skipped };
}
