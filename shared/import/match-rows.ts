// Matches the rows read from an export to platform customers: by platform customer id when the row has
// one, else by e-mail (trimmed, case-insensitive). A row is skipped when it has neither (`no_identifier`),
// when its id or e-mail appears on several rows (`duplicate`, every such row), when no customer has it
// (`no_customer`) and when several customers have its e-mail (`ambiguous`).
import { emailKey, type CustomerDirectory } from './customer-directory';
import type { ImportRow, MatchedRow, SkippedRow } from './import-row';

/** Customers asked of the directory at once: the platform directory batches further itself. */
const LOOKUP_BATCH = 1000;

async function inBatches<T>(keys: string[], ask: (batch: string[]) => Promise<Map<string, T>>): Promise<Map<string, T>> {
  const found = new Map<string, T>();
  for (let start = 0; start < keys.length; start += LOOKUP_BATCH) {
    for (const [key, value] of await ask(keys.slice(start, start + LOOKUP_BATCH))) found.set(key, value);
  }
  return found;
}

export async function matchRows(
  rows: ImportRow[],
  directory: CustomerDirectory,
): Promise<{ matched: MatchedRow[]; skipped: SkippedRow[] }> {
  const skipped: SkippedRow[] = [];
  // The key a row is matched by: its id, else its e-mail.
  const keyed: Array<{ row: ImportRow; by: 'id' | 'email'; key: string }> = [];
  for (const row of rows) {
    if (row.platformCustomerId !== null) keyed.push({ row, by: 'id', key: row.platformCustomerId });
    else if (row.email !== null && row.email.trim() !== '') keyed.push({ row, by: 'email', key: emailKey(row.email) });
    else skipped.push({ line: row.line, reason: 'no_identifier', detail: 'the row has neither a customer id nor an e-mail' });
  }

  // Every row of an id or e-mail found on several rows is skipped: which balance is right cannot be told.
  const linesOf = new Map<string, number[]>();
  const seen = (name: string) => linesOf.get(name) ?? [];
  for (const { row } of keyed) {
    if (row.platformCustomerId !== null) linesOf.set(`id:${row.platformCustomerId}`, [...seen(`id:${row.platformCustomerId}`), row.line]);
    if (row.email !== null && row.email.trim() !== '')
      linesOf.set(`email:${emailKey(row.email)}`, [...seen(`email:${emailKey(row.email)}`), row.line]);
  }
  const duplicateOf = (row: ImportRow): string | null => {
    if (row.platformCustomerId !== null && seen(`id:${row.platformCustomerId}`).length > 1) {
      return `customer id ${row.platformCustomerId} is on lines ${seen(`id:${row.platformCustomerId}`).join(', ')}`;
    }
    if (row.email !== null && row.email.trim() !== '' && seen(`email:${emailKey(row.email)}`).length > 1) {
      return `e-mail '${row.email.trim()}' is on lines ${seen(`email:${emailKey(row.email)}`).join(', ')}`;
    }
    return null;
  };
  const unique = keyed.filter(({ row }) => {
    const duplicate = duplicateOf(row);
    if (duplicate !== null) skipped.push({ line: row.line, reason: 'duplicate', detail: duplicate });
    return duplicate === null;
  });

  const ids = [...new Set(unique.filter((entry) => entry.by === 'id').map((entry) => entry.key))];
  const emails = [...new Set(unique.filter((entry) => entry.by === 'email').map((entry) => entry.key))];
  const customersById = await inBatches(ids, (batch) => directory.byIds(batch));
  const customersByEmail = await inBatches(emails, (batch) => directory.byEmails(batch));

  const matched: MatchedRow[] = [];
  for (const { row, by, key } of unique) {
    if (by === 'id') {
      const customer = customersById.get(key);
      if (customer) matched.push({ row, customer, matchedBy: 'id' });
      else skipped.push({ line: row.line, reason: 'no_customer', detail: `no customer has the id ${key}` });
      continue;
    }
    const customers = customersByEmail.get(key) ?? [];
    if (customers.length === 1) matched.push({ row, customer: customers[0]!, matchedBy: 'email' });
    else if (customers.length === 0)
      skipped.push({ line: row.line, reason: 'no_customer', detail: `no customer has the e-mail '${row.email!.trim()}'` });
    else {
      const ids = customers.map((customer) => customer.id).join(', ');
      skipped.push({ line: row.line, reason: 'ambiguous', detail: `the e-mail '${row.email!.trim()}' belongs to customers ${ids}` });
    }
  }
  skipped.sort((a, b) => a.line - b.line);
  return { matched, skipped };
}
