// What every write of the service costs, and what its domain events add (docs/performance.md#write-cost):
// each write path (the write routes, the webhook topics that write, the scheduled jobs that write, the
// import and its undo) run once, in turn, against a twin of its own in this process (its own DynamoDB Local
// and a shop of its own), with the recorder (write-recorder.ts) on the code's DynamoDB client: the calls
// of the request, the items its writes touched and their images before and after, priced by DynamoDB's
// published rules (write-units.ts). "Before" is the same writes without the domain event items committed
// with them (shared/data/commit.ts), "after" as committed. DynamoDB Local's own ConsumedCapacity is not
// used: it does not count the event items reliably.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importMembers, undoImportCommand } from '../infra/cli/commands';
import { DEMO_CONFIG, PROJECT_ROOT, startTwin, type Twin } from '../infra/local/twin';
import { parseConfig } from '../shared/config/schema';
import { SCHEDULED_JOBS } from '../shared/runtime/entry-points';
import { setClock } from '../shared/runtime/clock';
import type { RecordedCall } from './write-recorder';
import { writeRecorder, type WriteRecorder } from './write-recorder';

/** One write path's cost: its calls as committed, its items and write units without its events and with them. */
export interface WritePathCost {
  path: string;
  /** DynamoDB calls of the request (the job run, the import), all commands. */
  calls: number;
  callsByCommand: Record<string, number>;
  /** TransactWriteItems calls. */
  transactions: number;
  /** Items the writes touched (a transaction's condition checks included), without the event items and with them. */
  itemsBefore: number;
  itemsAfter: number;
  /** The items of its TransactWriteItems calls alone, without the event items and with them. */
  transactionItemsBefore: number;
  transactionItemsAfter: number;
  /** Write units by DynamoDB's rules (table and index writes), without the event items and with them. */
  wcuBefore: number;
  wcuAfter: number;
  /** Each event item: its type and its bytes as stored. */
  events: Array<{ type: string; bytes: number; units: number }>;
  /** Calls DynamoDB refused (a condition, a conflict): priced at nothing. */
  refused: number;
  /** What the run reported (a job's counts, an import's rows), when it says more than the path's name. */
  note?: string;
}

/** One path's figures from the calls it made. Pure. */
export function writePathCost(path: string, calls: readonly RecordedCall[], note?: string): WritePathCost {
  const callsByCommand: Record<string, number> = {};
  for (const call of calls) {
    const command = call.command.replace(/Command$/, '');
    callsByCommand[command] = (callsByCommand[command] ?? 0) + 1;
  }
  const items = calls.flatMap((call) => call.items);
  const transactionItems = calls.filter((call) => call.command === 'TransactWriteItemsCommand').flatMap((call) => call.items);
  const kept = items.filter((item) => !item.event);
  const events = items.filter((item) => item.event);
  const units = (list: typeof items) => list.reduce((sum, item) => sum + item.units, 0);
  return {
    path,
    calls: calls.length,
    callsByCommand,
    transactions: callsByCommand.TransactWriteItems ?? 0,
    itemsBefore: kept.length,
    itemsAfter: items.length,
    transactionItemsBefore: transactionItems.filter((item) => !item.event).length,
    transactionItemsAfter: transactionItems.length,
    wcuBefore: units(kept),
    wcuAfter: units(items),
    events: events.map((item) => ({ type: item.eventType ?? 'unknown', bytes: item.bytesAfter, units: item.units })),
    refused: calls.filter((call) => call.refused).length,
    ...(note ? { note } : {}),
  };
}

export interface WriteCostFigures {
  paths: WritePathCost[];
  /** Paths whose run did not do what the section expects (a status, nothing written): any fails the bench. */
  failures: string[];
}

const SHOP = 'writes';
const KEY = 'writes_full_key';
const MEMBER = '9001';
/** Excluded by its path, so its points freeze: a member of its own. */
const EXCLUDED = '9002';
const CREATED_BY_WEBHOOK = '9003';
const IMPORTED = '9004';
/** Joins through the storefront's shopper route. */
const JOINED = '9005';
const FRIEND_EMAIL = 'friend.9001@example.com';
/** The clock the paths run at, then moved forward for each job. */
const T0 = Date.parse('2027-01-04T10:00:00.000Z');
const DAY = 86_400_000;
const BIRTHDAY = '1990-02-10';

/** The demo shop's programme (rules, rewards, tiers, referral settings), with members of its own and auto enrolment. */
export function writeCostConfig(): unknown {
  const demo = JSON.parse(readFileSync(DEMO_CONFIG, 'utf8')) as { shops: Array<Record<string, unknown>> };
  const shop = demo.shops[0]!;
  const customers = ['9001', '9002', '9003', '9004', '9005'].map((id) => ({
    id,
    email: `member.${id}@example.com`,
    first_name: 'Member',
    last_name: id,
    created_at: '2026-12-01T00:00:00.000Z',
  }));
  return {
    shops: [
      {
        ...shop,
        id: SHOP,
        name: 'Write cost',
        api_keys: [{ name: 'Backend', scope: 'full', key: KEY, revoked: false }],
        earning_settings: { ...(shop.earning_settings as object), auto_enroll: true },
        platform: {
          shop_domain: 'writes.myshopify.com',
          webhook_secret: 'writes-webhook-secret',
          client_id: 'writes-client-id',
          client_secret: 'writes-client-secret',
          customers,
        },
        members: [],
      },
    ],
  };
}

interface Answer {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- the paths read what they need
}

async function send(url: string, method: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(url, {
    method,
    headers: { ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...headers },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  return { status: response.status, body: parsed };
}

interface Context {
  twin: Twin;
  api(method: string, path: string, body?: unknown): Promise<Answer>;
  platform(method: string, path: string, body?: unknown): Promise<Answer>;
  /** A shopper route, with a customer session token the simulator mints for the shop's app. */
  shopper(customerId: string, method: string, path: string, body?: unknown): Promise<Answer>;
  /** A job of the manifest, once (its handler module's `run`, as the twin's POST /_jobs/run). */
  job(name: string): Promise<unknown>;
  folder: string;
  state: Record<string, string>;
}

/** One path: what it prepares (not measured), what it runs (measured), and whether what it ran did its work. */
interface WritePath {
  path: string;
  prepare?(context: Context): Promise<void>;
  run(context: Context): Promise<Answer | unknown>;
  /** Null when the run did what it should, else why not. */
  check(outcome: unknown): string | null;
  /** A note for the table, from the run's answer. */
  note?(outcome: unknown): string;
}

const status = (expected: number) => (outcome: unknown) => {
  const answer = outcome as Answer;
  return answer.status === expected ? null : `answered ${answer.status}, not ${expected}: ${JSON.stringify(answer.body).slice(0, 300)}`;
};
/** A webhook sent through the simulator: its delivery to the twin answered 200 (the processing is awaited in the twin). */
const delivered = (outcome: unknown) => {
  const answer = outcome as Answer;
  const webhook = answer.body?.webhook as { status?: number } | undefined;
  return answer.status < 300 && webhook?.status === 200 ? null : `the delivery answered ${JSON.stringify(answer.body).slice(0, 300)}`;
};
const jobDid = (outcome: unknown) =>
  ((outcome as { changed?: number }).changed ?? 0) > 0 ? null : `the run changed nothing: ${JSON.stringify(outcome)}`;
const jobNote = (outcome: unknown) => JSON.stringify(outcome);
const at = (days: number, hour = 10) => new Date(T0 + days * DAY + (hour - 10) * 3_600_000);

const customerPayload = (id: string) => ({
  id: Number(id),
  email: `member.${id}@example.com`,
  created_at: '2026-12-01T00:00:00-05:00',
  updated_at: '2027-01-04T05:00:00-05:00',
  first_name: 'Member',
  last_name: id,
  state: 'enabled',
  note: null,
  verified_email: true,
  multipass_identifier: null,
  tax_exempt: false,
  tags: '',
  currency: 'USD',
  phone: null,
  addresses: [],
  tax_exemptions: [],
  admin_graphql_api_id: `gid://shopify/Customer/${id}`,
});

/** Every write path, in the order they run (each may rely on what the earlier ones wrote). */
export const WRITE_PATHS: readonly WritePath[] = [
  {
    path: 'POST /customers (enrol, signup award)',
    run: (c) => c.api('POST', '/v1/customers', { platform_customer_id: MEMBER }),
    check: status(201),
  },
  {
    path: 'PUT /customers/{id} (anniversary: fields only)',
    run: (c) => c.api('PUT', `/v1/customers/${MEMBER}`, { anniversary_date: '2020-06-01' }),
    check: status(200),
  },
  {
    path: 'PUT /customers/{id} (birthday)',
    run: (c) => c.api('PUT', `/v1/customers/${MEMBER}`, { date_of_birth: BIRTHDAY }),
    check: status(200),
  },
  {
    path: 'PUT /customers/{id} (exclude)',
    prepare: async (c) => void (await c.api('POST', '/v1/customers', { platform_customer_id: EXCLUDED })),
    run: (c) => c.api('PUT', `/v1/customers/${EXCLUDED}`, { is_excluded: true }),
    check: status(200),
  },
  {
    path: 'POST /customers/{id}/points (adjustment)',
    run: (c) => c.api('POST', `/v1/customers/${MEMBER}/points`, { adjustment: 10 }),
    check: status(200),
  },
  {
    path: 'POST /customers/{id}/actions',
    run: (c) => c.api('POST', `/v1/customers/${MEMBER}/actions`, { action: 'share_a_product' }),
    check: status(201),
  },
  {
    path: 'POST /rewards/{id}/purchase',
    // The points for this purchase and the next (and a tier on the way), given before.
    prepare: async (c) => void (await c.api('POST', `/v1/customers/${MEMBER}/points`, { adjustment: 1500 })),
    run: (c) => c.api('POST', '/v1/rewards/five-off/purchase', { customer_identifier: MEMBER }),
    check: status(201),
  },
  {
    path: 'POST /rewards/{id}/purchase (a free product)',
    // The free Merino scarf's 2500 points, given before.
    prepare: async (c) => void (await c.api('POST', `/v1/customers/${MEMBER}/points`, { adjustment: 2500 })),
    run: (c) => c.api('POST', '/v1/rewards/merino-scarf/purchase', { customer_identifier: MEMBER }),
    check: status(201),
  },
  {
    path: 'POST /rewards/{id}/purchase (store credit)',
    // Its 500 points given before; the marker recorded before the credit is sent is one more write.
    prepare: async (c) => void (await c.api('POST', `/v1/customers/${MEMBER}/points`, { adjustment: 500 })),
    run: (c) => c.api('POST', '/v1/rewards/store-credit-5/purchase', { customer_identifier: MEMBER }),
    check: status(201),
  },
  {
    path: 'POST .../reward-history/{id}/refund (store credit)',
    // The credit debited first (its marker recorded before), then the refund's transaction.
    prepare: async (c) => {
      await c.api('POST', `/v1/customers/${MEMBER}/points`, { adjustment: 500 });
      const bought = await c.api('POST', '/v1/rewards/store-credit-5/purchase', { customer_identifier: MEMBER });
      c.state.creditRefunded = String(bought.body.data.id);
    },
    run: (c) => c.api('POST', `/v1/customers/${MEMBER}/reward-history/${c.state.creditRefunded}/refund`),
    check: status(200),
  },
  {
    path: 'POST .../reward-history/{id}/refund',
    prepare: async (c) => {
      const bought = await c.api('POST', '/v1/rewards/five-off/purchase', { customer_identifier: MEMBER });
      c.state.refunded = String(bought.body.data.id);
    },
    run: (c) => c.api('POST', `/v1/customers/${MEMBER}/reward-history/${c.state.refunded}/refund`),
    check: status(200),
  },
  {
    path: 'POST /referrals',
    prepare: async (c) => {
      c.state.code = String((await c.api('GET', `/v1/customers/${MEMBER}`)).body.data.attributes.referral_code);
    },
    run: (c) => c.api('POST', '/v1/referrals', { referral_code: c.state.code, email: FRIEND_EMAIL }),
    check: status(201),
  },
  {
    path: 'POST /shopper/member (join)',
    run: (c) => c.shopper(JOINED, 'POST', '/shopper/member', {}),
    check: status(201),
  },
  {
    path: 'POST /shopper/rewards/{id}/redeem',
    // A reward whose code never expires: the code expiry job's row stays the one code of the purchase above.
    run: (c) => c.shopper(MEMBER, 'POST', '/shopper/rewards/ten-percent/redeem', {}),
    check: status(201),
  },
  {
    path: 'webhook orders/updated (new order awaiting payment)',
    run: async (c) => {
      const created = await c.platform('POST', '/_orders', {
        shop: SHOP,
        customer_id: MEMBER,
        subtotal_price: '40.00',
        financial_status: 'pending',
      });
      c.state.order = String(created.body?.order?.id);
      return created;
    },
    check: delivered,
  },
  {
    path: 'webhook orders/paid',
    run: (c) => c.platform('POST', `/_orders/${c.state.order}/pay`, {}),
    check: delivered,
  },
  {
    path: 'webhook refunds/create',
    run: (c) => c.platform('POST', `/_orders/${c.state.order}/refunds`, { subtotal: '10.00' }),
    check: delivered,
  },
  {
    path: 'webhook customers/create (auto enrol)',
    run: (c) =>
      c.platform('POST', '/_webhooks/send', { shop: SHOP, topic: 'customers/create', payload: customerPayload(CREATED_BY_WEBHOOK) }),
    check: delivered,
  },
  {
    path: 'webhook customers/redact',
    run: (c) =>
      c.platform('POST', '/_webhooks/send', {
        shop: SHOP,
        topic: 'customers/redact',
        payload: {
          shop_id: 954889,
          shop_domain: 'writes.myshopify.com',
          customer: { id: Number(CREATED_BY_WEBHOOK), email: `member.${CREATED_BY_WEBHOOK}@example.com`, phone: null },
          orders_to_redact: [],
        },
      }),
    check: delivered,
  },
  {
    path: 'import (one member)',
    prepare: async (c) => {
      await writeFile(
        join(c.folder, 'members.csv'),
        `Customer ID,Email,Points Balance,Points Spent,Date of birth,VIP tier\n'${IMPORTED},,"300",0,,\n`,
      );
      await writeFile(
        join(c.folder, 'customers.csv'),
        `Customer ID,First Name,Last Name,Email,Accepts Email Marketing\n'${IMPORTED},Member,${IMPORTED},member.${IMPORTED}@example.com,no\n`,
      );
    },
    run: (c) =>
      importMembers(
        {
          file: join(c.folder, 'members.csv'),
          shop: SHOP,
          from: 'smile',
          mode: 'add',
          customers: join(c.folder, 'customers.csv'),
          dryRun: false,
        },
        { print: (line) => void (/^Import id: /.test(line) && (c.state.importId = line.replace(/^Import id: /, ''))) },
      ),
    check: (report) => ((report as { created?: number }).created === 1 ? null : `imported ${JSON.stringify(report).slice(0, 300)}`),
  },
  {
    path: 'import undo (one member)',
    run: (c) => undoImportCommand({ importId: c.state.importId!, shop: SHOP }, { print: () => undefined }),
    check: (report) => ((report as { removed?: number }).removed === 1 ? null : `removed ${JSON.stringify(report).slice(0, 300)}`),
  },
  // The jobs, each at the clock where its work is due: the order's pending points 14 days on, the unused
  // code's expiry 30 days on, the birthday, the batches' reminders 30 days before and their expiry 365 days on.
  {
    path: 'job points_approval',
    prepare: async () => setClock(at(15)),
    run: (c) => c.job('points_approval'),
    check: jobDid,
    note: jobNote,
  },
  {
    path: 'job reward_code_expiry',
    prepare: async () => setClock(at(31)),
    run: (c) => c.job('reward_code_expiry'),
    check: jobDid,
    note: jobNote,
  },
  {
    path: 'job birthdays',
    prepare: async () => setClock(new Date('2027-02-10T12:00:00.000Z')),
    run: (c) => c.job('birthdays'),
    check: jobDid,
    note: jobNote,
  },
  {
    path: 'job expiry_reminders',
    prepare: async () => setClock(at(340)),
    run: (c) => c.job('expiry_reminders'),
    check: jobDid,
    note: jobNote,
  },
  { path: 'job points_expiry', prepare: async () => setClock(at(366)), run: (c) => c.job('points_expiry'), check: jobDid, note: jobNote },
];

/** Runs every write path once, in order, recorded; a twin of its own in this process (`dynamodbEndpoint`: an existing DynamoDB). */
export async function writeCostBench(options: { dynamodbEndpoint?: string; tableName?: string } = {}): Promise<WriteCostFigures> {
  const folder = await mkdtemp(join(tmpdir(), 'loyalty-write-cost-'));
  let recorder: WriteRecorder | null = null;
  let twin: Twin | null = null;
  try {
    setClock(new Date(T0));
    recorder = writeRecorder();
    twin = await startTwin({
      config: parseConfig(writeCostConfig()),
      port: 0,
      throttling: false,
      environment: { SHOP_CONFIG_TTL_SECONDS: '3600' },
      ...(options.dynamodbEndpoint ? { dynamodbEndpoint: options.dynamodbEndpoint } : {}),
      ...(options.tableName ? { tableName: options.tableName } : {}),
    });
    setClock(new Date(T0));
    const { url, platformUrl } = twin;
    const context: Context = {
      twin,
      api: (method, path, body) => send(`${url}${path}`, method, body, { Authorization: KEY }),
      platform: (method, path, body) => send(`${platformUrl}${path}`, method, body),
      shopper: async (customerId, method, path, body) => {
        const minted = await send(`${platformUrl}/_session_tokens`, 'POST', { shop: SHOP, customer_id: customerId });
        return send(`${url}${path}`, method, body, { Authorization: `Bearer ${String(minted.body?.token)}` });
      },
      job: async (name) => {
        const job = SCHEDULED_JOBS.find((entry) => entry.name === name);
        if (!job) throw new Error(`No scheduled job named ${name}`);
        return ((await import(join(PROJECT_ROOT, job.handler))) as { run(): Promise<unknown> }).run();
      },
      folder,
      state: {},
    };
    // Warm: the key's authorizer answer and the shop's configuration cached, the handlers loaded.
    await context.api('GET', '/v1/vip-tiers');
    const paths: WritePathCost[] = [];
    const failures: string[] = [];
    // Everything asked before a path settles first: its events on the bus, and the bus's consumers (the program's
    // figures, Klaviyo) done with them, so none of their writes is recorded as the path's on a slow machine.
    const settled = async () => {
      await twin!.eventStream.caughtUp();
      await Promise.all([twin!.figures.idle(), twin!.klaviyo.idle(), twin!.deliveryQueue.drained()]);
    };
    for (const path of WRITE_PATHS) {
      await path.prepare?.(context);
      await settled();
      const { result, calls } = await recorder.record(() => path.run(context));
      await twin.eventStream.caughtUp();
      const failed = path.check(result);
      if (failed) failures.push(`${path.path}: ${failed}`);
      paths.push(writePathCost(path.path, calls, path.note?.(result)));
    }
    return { paths, failures };
  } finally {
    await twin?.stop();
    recorder?.stop();
    setClock(null);
    await rm(folder, { recursive: true, force: true });
  }
}

const pad = (value: string | number, width: number) => String(value).padStart(width);

/** The table: path, calls, items and WCU before and after the events, and each event's bytes. */
export function writeCostLines(figures: WriteCostFigures): string[] {
  const width = Math.max(4, ...figures.paths.map((row) => row.path.length));
  const lines = [
    `${'path'.padEnd(width)}  calls  items before/after  WCU before/after  extra WCU  event bytes`,
    ...figures.paths.map(
      (row) =>
        `${row.path.padEnd(width)}  ${pad(row.calls, 5)}  ${pad(`${row.itemsBefore} / ${row.itemsAfter}`, 18)}  ${pad(`${row.wcuBefore} / ${row.wcuAfter}`, 16)}  ${pad(row.wcuAfter - row.wcuBefore, 9)}  ${row.events.map((event) => `${event.type} ${event.bytes}`).join(', ') || '-'}`,
    ),
  ];
  for (const row of figures.paths) {
    if (row.note || row.refused > 0)
      lines.push(
        `${row.path}: ${[row.note, row.refused > 0 ? `${row.refused} call(s) refused by DynamoDB and tried again` : ''].filter(Boolean).join('; ')}`,
      );
  }
  for (const failure of figures.failures) lines.push(`FAILED ${failure}`);
  return lines;
}

export function printWriteCost(figures: WriteCostFigures): void {
  console.log(
    "\nWrite cost per request: DynamoDB calls, items and write units (DynamoDB's rules) without the domain event items and with them",
  );
  for (const line of writeCostLines(figures)) console.log(`  ${line}`);
}
