// The columns each app's export names, per field of an ImportRow: a header is compared with them after
// normalizing (case, spaces, underscores, hyphens and a trailing "(MM/DD)"-style note ignored), so
// "Points Balance", "points_balance" and "POINTS-BALANCE" are one column. docs/migrate.md lists them with
// their sources; `native` takes any name of any app.
import type { ImportSource } from './import-row';

export type ImportField =
  'id' | 'email' | 'points' | 'pending' | 'spent' | 'birthday' | 'state' | 'blocked' | 'excluded' | 'enrolled' | 'tier' | 'enrolledAt';

export type ColumnMap = Readonly<Partial<Record<ImportField, readonly string[]>>>;

/** `Points Balance` -> `pointsbalance`; `Birthday (MM/DD)` -> `birthday`. */
export function normalizeHeader(header: string): string {
  return header
    .replace(/\([^)]*\)/g, '')
    .toLowerCase()
    .replace(/[\s_-]+/g, '');
}

const map = (columns: Record<ImportField, string[]> | Partial<Record<ImportField, string[]>>): ColumnMap =>
  Object.fromEntries(Object.entries(columns).map(([field, names]) => [field, (names ?? []).map(normalizeHeader)]));

/** Smile: Customers > Filter and export > Download results (help.smile.io; see docs/migrate.md). */
const SMILE = map({
  id: ['Customer ID', 'Shopify Customer ID', 'External ID'],
  email: ['Email', 'Customer Email'],
  points: ['Points Balance', 'Points'],
  spent: ['Points Spent', 'Points Redeemed'],
  birthday: ['Date of birth', 'Birthday', 'Birthdate'],
  state: ['Member status', 'State'],
  tier: ['VIP tier', 'VIP tier name'],
  enrolledAt: ['Member since', 'Joined at'],
});

/** LoyaltyLion: the v2 customers resource (developers.loyaltylion.com), as CSV or JSON Lines. */
const LOYALTYLION = map({
  id: ['merchant_id'],
  email: ['email'],
  points: ['points_approved'],
  pending: ['points_pending'],
  spent: ['points_spent'],
  birthday: ['birthday'],
  state: ['state'],
  blocked: ['blocked'],
  enrolled: ['enrolled'],
  tier: ['tier', 'loyalty_tier', 'tier_name'],
  enrolledAt: ['enrolled_at'],
});

/** Yotpo Loyalty & Referrals: Customers > Export, and its import columns (support.yotpo.com). */
const YOTPO = map({
  id: ['Customer ID', 'Shopify Customer ID', 'Platform ID'],
  email: ['Email', 'Customer Email'],
  points: ['Points Balance', 'Current Points Balance', 'Points'],
  spent: ['Points Spent', 'Total Points Spent'],
  birthday: ['Birthday', 'Birthdate'],
  state: ['Opted In', 'Status', 'Member status'],
  tier: ['VIP Tier', 'Tier', 'Current VIP Tier'],
  enrolledAt: ['Opt-in Date', 'Activation Date'],
});

/** Rivo: Customers > Export, and its CSV import template and header aliases (help.rivo.io). */
const RIVO = map({
  id: ['Shopify Customer ID', 'Customer ID', 'Remote ID'],
  email: ['Email', 'Customer Email', 'Shopify Customer Email'],
  points: ['Points Balance', 'Points', 'Points Tally'],
  spent: ['Points Spent', 'Points Redeemed'],
  birthday: ['Birthdate', 'Birthday', 'Date of birth', 'dob'],
  state: ['Loyalty Status', 'Status', 'State'],
  tier: ['VIP Tier', 'Tier'],
  enrolledAt: ['Activation Date', 'Enrolled At'],
});

/** Growave: Loyalty > Customers > Export, and its points CSV (help.growave.io: Customer ID, Email, Points, Birthdate). */
const GROWAVE = map({
  id: ['Customer ID', 'Shopify Customer ID'],
  email: ['Email', 'Customer Email'],
  points: ['Points', 'Points Balance', 'Current Points'],
  spent: ['Points Spent', 'Spent Points'],
  birthday: ['Birthday', 'Birthdate', 'Date of birth'],
  state: ['Status', 'State'],
  tier: ['Tier', 'VIP Tier'],
  enrolledAt: ['Joined At', 'Activation Date'],
});

/** BON Loyalty: Customers > Export, and its import file (bonloyalty.com docs: Shopify Customer IDs, Customer Emails, Points). */
const BON = map({
  id: ['Customer ID', 'Shopify Customer ID', 'Shopify Customer IDs', 'Shopify ID'],
  email: ['Email', 'Customer Email', 'Customer Emails'],
  points: ['Points Balance', 'Points', 'Available Points'],
  spent: ['Points Spent', 'Redeemed Points', 'Used Points'],
  birthday: ['Birthday', 'Date of birth', 'Birthdate'],
  state: ['Status', 'Member status', 'State'],
  tier: ['VIP Tier', 'Tier'],
  enrolledAt: ['Joined Date', 'Enrolled At', 'Activation Date'],
});

const APPS: Record<Exclude<ImportSource, 'native'>, ColumnMap> = {
  smile: SMILE,
  loyaltylion: LOYALTYLION,
  yotpo: YOTPO,
  rivo: RIVO,
  growave: GROWAVE,
  bon: BON,
};

/** The project's own format: any name of any app (and a few of its own), first listed wins. */
const NATIVE: ColumnMap = (() => {
  const fields = new Set<ImportField>();
  for (const columns of Object.values(APPS)) for (const field of Object.keys(columns)) fields.add(field as ImportField);
  const own = map({
    id: ['id', 'platform_customer_id', 'customer_id'],
    points: ['points', 'balance'],
    spent: ['redeemed_points'],
    birthday: ['date_of_birth'],
    excluded: ['excluded', 'disabled'],
    tier: ['tier'],
  });
  const names = (field: ImportField) => [
    ...new Set([...(own[field] ?? []), ...Object.values(APPS).flatMap((columns) => columns[field] ?? [])]),
  ];
  return Object.fromEntries([...fields, 'excluded' as const].map((field) => [field, names(field)]));
})();

export const COLUMN_MAPS: Readonly<Record<ImportSource, ColumnMap>> = { ...APPS, native: NATIVE };
