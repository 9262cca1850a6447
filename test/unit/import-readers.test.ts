// The import's readers on files shaped like each app's export (test/fixtures/imports/README.md names the
// source of each shape), the values they parse or refuse, Shopify's customer export, and matching with
// every skip reason.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { customerDirectoryFromExport, type CustomerDirectory } from '../../shared/import/customer-directory';
import { ImportFileError, type ImportRow, type MatchedCustomer } from '../../shared/import/import-row';
import { matchRows } from '../../shared/import/match-rows';
import { readImportFile } from '../../shared/import/read-import-file';
import { parseBirthday, parseCustomerId, parsePoints, parseTimestamp } from '../../shared/import/import-values';

const fixture = (name: string) => readFileSync(join(__dirname, '..', 'fixtures', 'imports', name));

const row = (overrides: Partial<ImportRow>): ImportRow => ({
  line: 2,
  platformCustomerId: null,
  email: null,
  points: 0,
  pendingPoints: 0,
  redeemedPoints: null,
  dateOfBirth: null,
  excluded: null,
  tierName: null,
  enrolledAt: null,
  ...overrides,
});

describe('readImportFile, one file per app', () => {
  it("smile: semicolons, BOM, CRLF, quotes, '1.250', Smile's year 1004, exclusion, unreadable rows", () => {
    const read = readImportFile(fixture('smile.csv'), 'smile');

    expect(read.rowsRead).toBe(4);
    expect(read.rows).toEqual([
      row({ line: 2, email: 'ada@example.com', points: 1250, dateOfBirth: '1004-12-10', excluded: false, tierName: 'Gold' }),
      row({ line: 3, email: 'GRACE@example.com', points: 40, dateOfBirth: '1906-12-09', excluded: true }),
    ]);
    expect(read.skipped).toEqual([
      { line: 4, reason: 'unreadable', detail: "Points balance: '12.5' is not a whole number of points" },
      { line: 5, reason: 'unreadable', detail: "Date of birth: '02/30' is not a date" },
    ]);
  });

  it('refuses an e-mail with markup or a bidi override as unreadable, shown escaped (a NUL refuses the file)', () => {
    const csv = [
      'Email;Points balance',
      'v@example.com<svg/onload=alert(1)>;10',
      'rtl\u202egro@example.com;10',
      'jose@exämple.com;10',
    ].join('\n');

    const read = readImportFile(Buffer.from(csv, 'utf8'), 'smile');

    expect(read.rows.map((parsed) => parsed.email)).toEqual(['jose@exämple.com']);
    expect(read.skipped).toEqual([
      { line: 2, reason: 'unreadable', detail: "Email: 'v@example.com<svg/onload=alert(1)>' is not an e-mail address" },
      { line: 3, reason: 'unreadable', detail: "Email: 'rtl\\u202egro@example.com' is not an e-mail address" },
    ]);
  });

  it('loyaltylion: JSON Lines, pending points added, spent, blocked, nested tier, gid ids, bad lines', () => {
    const read = readImportFile(fixture('loyaltylion.jsonl'), 'loyaltylion');

    expect(read.rows).toEqual([
      row({
        line: 1,
        platformCustomerId: '7101',
        email: 'ada@example.com',
        points: 1000,
        pendingPoints: 100,
        redeemedPoints: 250,
        dateOfBirth: '1990-12-10',
        excluded: false,
        tierName: 'Gold',
        enrolledAt: '2023-01-05T10:00:00.000Z',
      }),
      row({ line: 2, platformCustomerId: '7102', email: 'grace@example.com', points: 40, redeemedPoints: 0, excluded: true }),
    ]);
    expect(read.skipped).toEqual([
      { line: 4, reason: 'unreadable', detail: "points_approved: 'lots' is not a number" },
      { line: 5, reason: 'unreadable', detail: "the line is not a JSON object: 'not a customer'" },
    ]);
    expect(read.rowsRead).toBe(4);
  });

  it('yotpo: reordered and extra columns, \'"2,500"\', MM/DD birthdays, an opt-in column that excludes nobody', () => {
    const read = readImportFile(fixture('yotpo.csv'), 'yotpo');

    expect(read.rows).toEqual([
      row({
        line: 2,
        email: 'ada@example.com',
        points: 2500,
        redeemedPoints: 100,
        dateOfBirth: '1004-12-10',
        excluded: false,
        tierName: 'Gold',
      }),
      row({ line: 3, email: 'grace@example.com', points: 0, redeemedPoints: 0, excluded: false }),
      row({ line: 4, points: 5, redeemedPoints: 0, excluded: false }),
    ]);
    expect(read.skipped).toEqual([]);
  });

  it("rivo: ids with an apostrophe or as a gid, a negative balance refused, 'excluded'", () => {
    const read = readImportFile(fixture('rivo.csv'), 'rivo');

    expect(read.rows.map((r) => [r.line, r.platformCustomerId, r.points, r.excluded])).toEqual([
      [2, '7101', 800, false],
      [4, '7103', 70, true],
    ]);
    expect(read.skipped).toEqual([{ line: 3, reason: 'unreadable', detail: "Points Balance: '-5' is negative" }]);
  });

  it("growave: semicolons, '1 250', MM-DD, blocked", () => {
    const read = readImportFile(fixture('growave.csv'), 'growave');

    expect(read.rows.map((r) => [r.platformCustomerId, r.points, r.redeemedPoints, r.dateOfBirth, r.excluded, r.tierName])).toEqual([
      ['7101', 1250, 10, '1004-12-10', false, 'Gold'],
      ['7102', 40, 0, null, true, null],
    ]);
  });

  it('bon: BOM, Customer Email, enrolment dates, an unreadable balance', () => {
    const read = readImportFile(fixture('bon.csv'), 'bon');

    expect(read.rows).toEqual([
      row({
        platformCustomerId: '7101',
        email: 'ada@example.com',
        points: 600,
        redeemedPoints: 0,
        dateOfBirth: '1990-12-10',
        excluded: false,
        tierName: 'Gold',
        enrolledAt: '2023-01-05T00:00:00.000Z',
      }),
    ]);
    expect(read.skipped).toEqual([{ line: 3, reason: 'unreadable', detail: "Points Balance: '12x' is not a number" }]);
  });

  it("native: the project's own names, and any app's", () => {
    expect(readImportFile(fixture('native.csv'), 'native').rows).toEqual([
      row({ email: 'ada@example.com', points: 100, redeemedPoints: 5, dateOfBirth: '1990-12-10', excluded: false, tierName: 'Gold' }),
      row({ line: 3, email: 'grace@example.com', points: 40, excluded: true }),
    ]);
    expect(readImportFile(fixture('loyaltylion.jsonl'), 'native').rows[0]).toMatchObject({ points: 1000, pendingPoints: 100 });
    expect(readImportFile('Customer ID,Points Balance\n7101,5\n', 'native').rows).toEqual([row({ platformCustomerId: '7101', points: 5 })]);
  });

  it('reads the files Rivo, Growave and BON document for moving points: their own headers', () => {
    const rivo =
      'Email,Points Balance,Birthdate,VIP Tier,Activation Date,Credits Balance\nada@example.com,"1,200",1990-12-10,Gold,2024-03-01,\n';
    expect(readImportFile(rivo, 'rivo').rows).toEqual([
      row({ email: 'ada@example.com', points: 1200, dateOfBirth: '1990-12-10', tierName: 'Gold', enrolledAt: '2024-03-01T00:00:00.000Z' }),
    ]);
    const growave =
      'Customer ID,Email,Points,First Name,Last Name,Birthdate\n7101,ada@example.com,40,Ada,L,1990-12-10\n7102,bo@example.com,3.56,,,\n';
    const grown = readImportFile(growave, 'growave');
    expect(grown.rows).toEqual([row({ platformCustomerId: '7101', email: 'ada@example.com', points: 40, dateOfBirth: '1990-12-10' })]);
    expect(grown.skipped).toEqual([expect.objectContaining({ line: 3, reason: 'unreadable' })]);
    const bon = 'Shopify Customer IDs,Customer Emails,Points\n7101,ada@example.com,15\n';
    expect(readImportFile(bon, 'bon').rows).toEqual([row({ platformCustomerId: '7101', email: 'ada@example.com', points: 15 })]);
  });

  it("reads another app's columns only under that app: a Smile file is no LoyaltyLion file", () => {
    expect(() => readImportFile(fixture('smile.csv'), 'loyaltylion')).toThrow(ImportFileError);
  });
});

describe('readImportFile, the file as a whole', () => {
  it('counts a quoted field over several lines as its lines, and skips empty lines and rows', () => {
    const read = readImportFile('email,points,note\r\na@example.com,1,"two\r\nlines"\r\n\r\n,,\r\nb@example.com,2,\r\n', 'native');

    expect(read.rows.map((r) => [r.line, r.email])).toEqual([
      [2, 'a@example.com'],
      [6, 'b@example.com'],
    ]);
    expect(read.rowsRead).toBe(2);
  });

  it('ignores case, spaces, underscores and hyphens in headers', () => {
    expect(readImportFile('E-MAIL, Points_Balance \nA@example.com,3\n', 'smile').rows).toEqual([
      row({ email: 'A@example.com', points: 3 }),
    ]);
  });

  it('reports a row with more fields than the header (an unquoted comma)', () => {
    expect(readImportFile('email,points\na@example.com,1,250\n', 'smile').skipped).toEqual([
      { line: 2, reason: 'unreadable', detail: "the row has 3 fields and the header 2: is a value with a ',' left unquoted?" },
    ]);
  });

  it.each([
    ['no id or e-mail column', 'name,points\nAda,1\n', /no customer id or e-mail column/],
    ['no points column', 'email,name\na@example.com,Ada\n', /no points column/],
    ['an empty file', '', /empty/],
    ['a broken quote', 'email,points\n"a@example.com,1\n', /not a readable CSV/],
    ['JSON Lines without one object', '{ not json\n', /neither CSV nor JSON Lines/],
    ['binary data', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00]), /neither CSV nor JSON Lines/],
  ])('refuses %s with an ImportFileError', (_name, content, message) => {
    expect(() => readImportFile(content, 'native')).toThrow(ImportFileError);
    expect(() => readImportFile(content, 'native')).toThrow(message);
  });
});

describe('the values', () => {
  it.each([
    ['0', 0],
    ['1250', 1250],
    ['1,250', 1250],
    ['1.250', 1250],
    ['1 250 000', 1250000],
    [42, 42],
  ])('points %p are %p', (value, points) => {
    expect(parsePoints('points', value)).toBe(points);
  });

  it.each([
    ['12.5', 'is not a whole number of points'],
    ['1,25', 'is not a whole number of points'],
    ['1,250.00', 'is not a whole number of points'],
    ['-3', 'is negative'],
    ['abc', 'is not a number'],
    ['', 'is empty'],
    [1.5, 'is not a whole number of points'],
  ])('points %p are refused: %s', (value, why) => {
    expect(() => parsePoints('Points', value)).toThrow(`Points: '${String(value)}' ${why}`);
  });

  it.each([
    ['1990-06-22', '1990-06-22'],
    ['1990-06-22T00:00:00Z', '1990-06-22'],
    ['06/22/1990', '1990-06-22'],
    ['06/22', '1004-06-22'],
    ['6-2', '1004-06-02'],
    ['1004-02-29', '1004-02-29'],
    ['02/29', '1004-02-29'],
  ])('birthday %p is %p', (value, date) => {
    expect(parseBirthday('Birthday', value)).toBe(date);
  });

  it.each(['1990-02-30', '13/01', '02/29/1990', '00/10', '1990-06', 'June 22', '0990-01-01'])('birthday %p is refused', (value) => {
    expect(() => parseBirthday('Birthday', value)).toThrow(/^Birthday: '/);
  });

  it('reads ids with an apostrophe or as a gid and refuses others', () => {
    expect(parseCustomerId('id', "'7101")).toBe('7101');
    expect(parseCustomerId('id', 'gid://shopify/Customer/7101')).toBe('7101');
    expect(parseCustomerId('id', '')).toBeNull();
    expect(() => parseCustomerId('id', 'gid://shopify/Order/7101')).toThrow(/is not a customer id/);
    expect(() => parseCustomerId('id', '7101.0')).toThrow(/is not a customer id/);
  });

  it('reads enrolment dates as ISO 8601', () => {
    expect(parseTimestamp('at', '2023-01-05 10:20:30')).toBe('2023-01-05T10:20:30.000Z');
    expect(parseTimestamp('at', '2023-01-05T10:20:30+02:00')).toBe('2023-01-05T08:20:30.000Z');
    expect(() => parseTimestamp('at', 'yesterday')).toThrow(/is not a date/);
  });

  it('reports an unknown member status', () => {
    expect(readImportFile('email,points,state\na@example.com,1,frozen\n', 'native').skipped[0]!.detail).toMatch(
      /state: 'frozen' is not a member status/,
    );
  });
});

describe("Shopify's customer export", () => {
  const directory = customerDirectoryFromExport(fixture('shopify-customers.csv'));

  it('finds customers by id, the leading apostrophe removed', async () => {
    const found = await directory.byIds(['7101', '7105', '9999']);

    expect([...found.keys()]).toEqual(['7101', '7105']);
    expect(found.get('7101')).toEqual({ id: '7101', email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', createdAt: null });
  });

  it('finds customers by e-mail, case-insensitively, several for a shared address', async () => {
    const found = await directory.byEmails([' Ada@Example.com', 'jean@example.com', 'nobody@example.com']);

    expect(found.get('ada@example.com')!.map((customer) => customer.id)).toEqual(['7101']);
    expect(found.get('jean@example.com')!.map((customer) => customer.id)).toEqual(['7103', '7104']);
    expect(found.has('nobody@example.com')).toBe(false);
  });

  it('refuses a file without Customer ID', () => {
    expect(() => customerDirectoryFromExport('First Name,Email\nAda,ada@example.com\n')).toThrow(/no 'Customer ID' column/);
  });
});

describe('matchRows', () => {
  const customer = (id: string, email: string): MatchedCustomer => ({ id, email, firstName: '', lastName: '', createdAt: null });
  const customers = [
    customer('7101', 'ada@example.com'),
    customer('7102', 'grace@example.com'),
    customer('7103', 'twin@example.com'),
    customer('7104', 'TWIN@example.com'),
  ];
  const asked: string[][] = [];
  const directory: CustomerDirectory = {
    byIds: async (ids) => {
      asked.push(ids);
      return new Map(customers.filter((c) => ids.includes(c.id)).map((c) => [c.id, c]));
    },
    byEmails: async (emails) => {
      asked.push(emails);
      const found = new Map<string, MatchedCustomer[]>();
      for (const c of customers)
        if (emails.includes(c.email.toLowerCase())) found.set(c.email.toLowerCase(), [...(found.get(c.email.toLowerCase()) ?? []), c]);
      return found;
    },
  };

  it('matches by id first, else by e-mail, and skips with every reason', async () => {
    const rows = [
      row({ line: 2, platformCustomerId: '7101', email: 'someone-else@example.com' }),
      row({ line: 3, email: ' Grace@Example.com ' }),
      row({ line: 4, platformCustomerId: '9999' }),
      row({ line: 5, email: 'nobody@example.com' }),
      row({ line: 6, email: 'twin@example.com' }),
      row({ line: 7 }),
      row({ line: 8, email: 'dup@example.com' }),
      row({ line: 9, email: 'DUP@example.com ' }),
      row({ line: 10, platformCustomerId: '7102' }),
      row({ line: 11, platformCustomerId: '7102' }),
    ];

    const { matched, skipped } = await matchRows(rows, directory);

    expect(matched.map((m) => [m.row.line, m.customer.id, m.matchedBy])).toEqual([
      [2, '7101', 'id'],
      [3, '7102', 'email'],
    ]);
    expect(skipped).toEqual([
      { line: 4, reason: 'no_customer', detail: 'no customer has the id 9999' },
      { line: 5, reason: 'no_customer', detail: "no customer has the e-mail 'nobody@example.com'" },
      { line: 6, reason: 'ambiguous', detail: "the e-mail 'twin@example.com' belongs to customers 7103, 7104" },
      { line: 7, reason: 'no_identifier', detail: 'the row has neither a customer id nor an e-mail' },
      { line: 8, reason: 'duplicate', detail: "e-mail 'dup@example.com' is on lines 8, 9" },
      { line: 9, reason: 'duplicate', detail: "e-mail 'DUP@example.com' is on lines 8, 9" },
      { line: 10, reason: 'duplicate', detail: 'customer id 7102 is on lines 10, 11' },
      { line: 11, reason: 'duplicate', detail: 'customer id 7102 is on lines 10, 11' },
    ]);
    // Duplicates are never looked up; ids and e-mails are asked in one batch each.
    expect(asked).toEqual([
      ['7101', '9999'],
      ['grace@example.com', 'nobody@example.com', 'twin@example.com'],
    ]);
  });
});
