// Where the import finds the platform customers its rows name: Shopify's own customer export (the CSV of
// Customers > Export, given with `--customers`), or the shop's platform adapter, asked in batches.
import { parse } from 'csv-parse/sync';
import { customerLookupForShop, type CustomerLookupOptions } from '../platform/platform-for-shop';
import type { PlatformCustomer } from '../platform/port';
import { normalizeHeader } from './import-columns';
import { ImportFileError, type MatchedCustomer } from './import-row';

export interface CustomerDirectory {
  /** The customers of these numeric ids that exist (absent from the map: no such customer). */
  byIds(ids: string[]): Promise<Map<string, MatchedCustomer>>;
  /** Customers per lower-cased e-mail (several: ambiguous; none: absent). */
  byEmails(emails: string[]): Promise<Map<string, MatchedCustomer[]>>;
}

/** The key an e-mail is compared by: trimmed, lower-cased. */
export function emailKey(email: string): string {
  return email.trim().toLowerCase();
}

function directoryOf(customers: readonly MatchedCustomer[]): CustomerDirectory {
  const byId = new Map(customers.map((customer) => [customer.id, customer]));
  const byEmail = new Map<string, MatchedCustomer[]>();
  for (const customer of customers) {
    if (customer.email.trim() === '') continue;
    const key = emailKey(customer.email);
    byEmail.set(key, [...(byEmail.get(key) ?? []), customer]);
  }
  return {
    byIds: async (ids) => new Map(ids.flatMap((id) => (byId.has(id) ? [[id, byId.get(id)!] as const] : []))),
    byEmails: async (emails) =>
      new Map(emails.map(emailKey).flatMap((key) => (byEmail.has(key) ? [[key, byEmail.get(key)!] as const] : []))),
  };
}

const ID_COLUMNS = ['customerid', 'id'];
const EMAIL_COLUMNS = ['email', 'emailaddress'];

/**
 * Shopify's customer export: `Customer ID,First Name,Last Name,Email,Accepts Email Marketing,…`, its ids
 * often written `'7101` so a spreadsheet keeps every digit. Rows without an id or e-mail are left out.
 */
export function customerDirectoryFromExport(content: Buffer | string): CustomerDirectory {
  const text = (typeof content === 'string' ? content : content.toString('utf8')).replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const firstLine = text.slice(0, text.indexOf('\n') >>> 0);
  const delimiter = firstLine.split(';').length > firstLine.split(',').length ? ';' : ',';
  let records: string[][];
  try {
    records = parse(text, { delimiter, relax_column_count: true, skip_empty_lines: true }) as string[][];
  } catch (error) {
    throw new ImportFileError(`The customer export is not a readable CSV: ${String((error as Error).message).split(' at line')[0]}`);
  }
  const [header, ...rows] = records;
  const names = (header ?? []).map(normalizeHeader);
  const column = (candidates: string[]) => candidates.map((name) => names.indexOf(name)).find((index) => index >= 0) ?? -1;
  const id = column(ID_COLUMNS);
  const email = column(EMAIL_COLUMNS);
  if (id < 0 || email < 0) {
    throw new ImportFileError(
      `The customer export has no ${id < 0 ? "'Customer ID'" : "'Email'"} column: give Shopify's customer export (Customers > Export, CSV for Excel, Numbers, or other spreadsheet programs)`,
    );
  }
  const first = names.indexOf('firstname');
  const last = names.indexOf('lastname');
  const customers: MatchedCustomer[] = [];
  for (const row of rows) {
    const customerId = (row[id] ?? '').trim().replace(/^'/, '');
    if (!/^\d{1,20}$/.test(customerId)) continue;
    customers.push({
      id: customerId,
      email: (row[email] ?? '').trim(),
      firstName: first >= 0 ? (row[first] ?? '').trim() : '',
      lastName: last >= 0 ? (row[last] ?? '').trim() : '',
      createdAt: null,
    });
  }
  return directoryOf(customers);
}

/** The shop's customers through the platform adapter, asked in batches (customerLookupForShop). */
export function platformCustomerDirectory(shopId: string, options: CustomerLookupOptions = {}): CustomerDirectory {
  const lookup = customerLookupForShop(shopId, options);
  const matched = (customer: PlatformCustomer): MatchedCustomer => ({ ...customer });
  return {
    async byIds(ids) {
      const found = await lookup.customersByIds(ids);
      return new Map(found.map((customer) => [customer.id, matched(customer)]));
    },
    async byEmails(emails) {
      const found = await lookup.customersByEmails(emails);
      const byEmail = new Map<string, MatchedCustomer[]>();
      for (const customer of found) {
        const key = emailKey(customer.email);
        byEmail.set(key, [...(byEmail.get(key) ?? []), matched(customer)]);
      }
      return byEmail;
    },
  };
}
