// What the import of another loyalty app's export works with (PROGRAM-CONTRACT.md, "Import a program
// from another app"): a file's rows once read (readers), the rows once matched to platform customers
// (matching), and the rows that are skipped, each with its line number and reason.

/** The apps whose exports the import reads, and the project's own format. */
export const IMPORT_SOURCES = ['smile', 'loyaltylion', 'yotpo', 'rivo', 'growave', 'bon', 'native'] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

/** How the imported balance lands: added to the member's balance, or the balance set to it. */
export type ImportMode = 'add' | 'set';

/** One member as the export gives it, every value already parsed. */
export interface ImportRow {
  /** Line of the file the row starts on (1 is a CSV's header, or a JSON Lines file's first record). */
  line: number;
  /** Numeric platform customer id when the file has one (a leading apostrophe or a gid already removed). */
  platformCustomerId: string | null;
  /** The e-mail as the file gives it, trimmed; null when the file has none. */
  email: string | null;
  /** The balance to import, a whole number of points >= 0 (LoyaltyLion's pending points included). */
  points: number;
  /** The part of `points` that was pending in the other app (LoyaltyLion), counted by the report. */
  pendingPoints: number;
  /** Points the member already spent in the other app, or null when the file does not say. */
  redeemedPoints: number | null;
  /** `YYYY-MM-DD`, year 1004 when the export gives no year; null when the file does not say. */
  dateOfBirth: string | null;
  /** true: excluded, disabled or blocked in the other app; null when the file does not say. */
  excluded: boolean | null;
  /** The tier the other app had the member in, as named there; null when the file does not say. */
  tierName: string | null;
  /** When the member joined the other app (ISO 8601), or null. */
  enrolledAt: string | null;
}

/** A platform customer a row was matched to. */
export interface MatchedCustomer {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  /** The platform account's creation, or null when the source of the match does not say. */
  createdAt: string | null;
}

export interface MatchedRow {
  row: ImportRow;
  customer: MatchedCustomer;
  matchedBy: 'id' | 'email';
}

export type SkipReason =
  /** A value could not be read (points, birthday, id, ...); the detail names the column and value. */
  | 'unreadable'
  /** The row has neither an id nor an e-mail. */
  | 'no_identifier'
  /** The id or e-mail matches no platform customer. */
  | 'no_customer'
  /** The e-mail matches several platform customers. */
  | 'ambiguous'
  /** The id or e-mail appears on several rows of the file: all of them are skipped. */
  | 'duplicate'
  /** The platform erased the customer (customers/redact) and nothing enrolled them anew since. */
  | 'erased';

export interface SkippedRow {
  line: number;
  reason: SkipReason;
  /** A sentence an operator can act on, e.g. "points: '12x' is not a number". */
  detail: string;
}

/** A file that cannot be read at all (no id or e-mail column, no points column, not CSV or JSON Lines). */
export class ImportFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportFileError';
  }
}
