// The webhook burst: a twin of its own with one shop of members, signed `orders/paid` deliveries of
// orders the platform simulator created, posted to the receiver by concurrent senders as fast as it
// answers, then every delivery once more; latency, throughput, DynamoDB cost per order against the
// design's minimum, and the members' exact end state.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { webhookHeaders, type ShopWebhookIdentity } from '../infra/local/simulator/webhook-deliveries';
import { resetDocumentClient } from '../shared/data/client';
import { getCustomer } from '../shared/data/customer-repository';
import { countAll } from '../shared/data/item-reads';
import { keys } from '../shared/data/keys';
import { WEBHOOKS } from '../shared/runtime/entry-points';
import { resetEnv } from '../shared/runtime/env';
import { endStateMismatches, expectedEndState, type BurstOrder, type BurstRule, type MemberFigures } from './burst-end-state';
import { percentile, totalCalls } from './statistics';
import { twinDynamoDbStats } from './twin-control';
import { startTwinProcess, TWIN_TABLE } from './twin-process';

export interface BurstSettings {
  orders: number;
  customers: number;
  /** Deliveries in flight at once. */
  senders: number;
}

/** One pass over every delivery: the receiver's latency, throughput and DynamoDB cost per order. */
export interface BurstPass {
  p50: number;
  p99: number;
  ordersPerSecond: number;
  seconds: number;
  /** Deliveries answered with anything but 200. */
  failed: number;
  callsPerOrder: number;
  callsPerOrderByCommand: Record<string, number>;
  readUnitsPerOrder: number;
  writeUnitsPerOrder: number;
}

export interface BurstFigures extends BurstSettings {
  first: BurstPass;
  duplicates: BurstPass;
  /** The design's minimum per order (see DESIGN_MINIMUM). */
  minimum: typeof DESIGN_MINIMUM;
  exactCustomers: number;
  mismatches: string[];
}

const SHOP = 'burst';
const IDENTITY: ShopWebhookIdentity = { shop: SHOP, domain: 'burst.myshopify.com', secret: 'burst-webhook-secret' };
/** 2 points per whole $5: orders under $5 earn nothing and write no entry, which the end state checks too. */
const RULE: BurstRule = { points: 2, unitMinor: 500 };
const FIRST_CUSTOMER = 7_000_001;
/** Orders of one extra member before counting starts: module loading and the JITs are not measured. */
const WARM_UP_ORDERS = 40;
const ORDER_CREATORS = 8;

/**
 * What the design allows per order, from the code (docs/performance.md, "Webhook burst"), priced as
 * DynamoDB prices it. A first delivery: the receiver's GetItem of the shop-domain guard (eventually
 * consistent, 0.5 RCU), the processor's two consistent GetItems of profile and order item (1 RCU each;
 * the shop configuration is cached), one TransactWriteItems of four items under 1 KB (profile, order
 * item, order -> customer lookup, earning entry) at 2 WCU each, plus the index entries they move: the
 * profile leaves and re-enters the points and lifetime-points indexes (2 x 2 WCU each) and is rewritten
 * in the e-mail index (2), the entry enters its three history indexes (2 each): 8 + 10 + 6 = 24 WCU.
 * A duplicate: the same three reads, nothing written.
 */
export const DESIGN_MINIMUM = {
  first: { calls: 4, readUnits: 2.5, writeUnits: 24 },
  duplicate: { calls: 3, readUnits: 2.5, writeUnits: 0 },
};

/** A stable shuffle (a fixed linear congruential generator), so every run sends the same sequence. */
function shuffled<T>(items: readonly T[]): T[] {
  const result = [...items];
  let seed = 20_261_123;
  for (let i = result.length - 1; i > 0; i -= 1) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = seed % (i + 1);
    [result[i], result[j]] = [result[j]!, result[i]!];
  }
  return result;
}

function customerIds(count: number): string[] {
  return Array.from({ length: count }, (_, i) => String(FIRST_CUSTOMER + i));
}

/** The burst shop: members at zero, one purchase rule with a spend unit, points approved at once. */
function burstConfig(members: readonly string[]) {
  return {
    shops: [
      {
        id: SHOP,
        name: 'Burst',
        currency: 'USD',
        referral_base_url: 'https://burst.example/',
        earning_rules: [
          {
            id: 'per-five',
            name: '2 points per $5',
            action: 'purchase',
            category: 'purchase',
            points_to_give: RULE.points,
            spend_unit: RULE.unitMinor / 100,
          },
        ],
        earning_settings: { pending_days: 0 },
        platform: {
          shop_domain: IDENTITY.domain,
          webhook_secret: IDENTITY.secret,
          customers: members.map((id) => ({ id, email: `member${id}@burst.example` })),
        },
        members: members.map((id) => ({ platform_customer_id: id, enrolled_at: '2025-01-01T00:00:00.000Z' })),
      },
    ],
  };
}

interface Delivery extends BurstOrder {
  body: string;
  headers: Record<string, string>;
}

/** Runs `work` over the items with `concurrency` workers; returns once every item is done. */
async function inParallel<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

/** The simulator creates the paid orders (no delivery); the bench signs their REST bodies as it would. */
async function createDeliveries(platformUrl: string, orders: readonly BurstOrder[]): Promise<Delivery[]> {
  const deliveries: Delivery[] = [];
  await inParallel(orders, ORDER_CREATORS, async (order) => {
    const subtotal = (order.subtotalMinor / 100).toFixed(2);
    const response = await fetch(`${platformUrl}/_orders`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ shop: SHOP, customer_id: order.customerId, subtotal_price: subtotal, deliver: false }),
    });
    const answer = (await response.json()) as { order: unknown };
    if (response.status !== 201) throw new Error(`POST /_orders answered ${response.status}: ${JSON.stringify(answer)}`);
    const body = JSON.stringify(answer.order);
    const headers = webhookHeaders(IDENTITY, 'orders/paid', body, {
      id: randomUUID(),
      eventId: randomUUID(),
      triggeredAt: new Date().toISOString(),
    });
    deliveries.push({ ...order, body, headers });
  });
  return deliveries;
}

/**
 * Posts every delivery with `senders` in flight; the latency of each is from send to the end of its answer. The
 * twin process processes deliveries queued (`npm start`'s default), so the pass ends once its queue is drained
 * (`POST /_deliveries/drain`): throughput, DynamoDB cost and the end state are those of the processed deliveries.
 */
async function send(url: string, deliveries: readonly Delivery[], senders: number) {
  const latencies: number[] = [];
  let failed = 0;
  const started = performance.now();
  await inParallel(deliveries, senders, async (delivery) => {
    const t0 = performance.now();
    const response = await fetch(`${url}${WEBHOOKS[0]!.path}`, { method: 'POST', headers: delivery.headers, body: delivery.body });
    await response.arrayBuffer();
    latencies.push(performance.now() - t0);
    if (response.status !== 200) failed += 1;
  });
  const drained = await fetch(`${url}/_deliveries/drain`, { method: 'POST' });
  if (drained.status !== 200) throw new Error(`POST /_deliveries/drain answered ${drained.status}`);
  return { latencies: latencies.sort((a, b) => a - b), failed, seconds: (performance.now() - started) / 1000 };
}

async function measuredPass(url: string, deliveries: readonly Delivery[], senders: number): Promise<BurstPass> {
  await twinDynamoDbStats(url, 'reset');
  const { latencies, failed, seconds } = await send(url, deliveries, senders);
  const counted = await twinDynamoDbStats(url, 'pause');
  const n = deliveries.length;
  return {
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    ordersPerSecond: n / seconds,
    seconds,
    failed,
    callsPerOrder: totalCalls(counted.calls) / n,
    callsPerOrderByCommand: Object.fromEntries(
      Object.entries(counted.calls).map(([command, calls]) => [command.replace(/Command$/, ''), calls / n]),
    ),
    readUnitsPerOrder: counted.readUnits / n,
    writeUnitsPerOrder: counted.writeUnits / n,
  };
}

/** Each member's stored figures, read straight from the table (consistent profile read, entries counted). */
async function storedFigures(ids: readonly string[]): Promise<Map<string, MemberFigures | null>> {
  const figures = new Map<string, MemberFigures | null>();
  await inParallel(ids, 16, async (id) => {
    const customer = await getCustomer(SHOP, id, true);
    const entries = await countAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :earn)',
      ExpressionAttributeValues: { ':pk': keys.customerPk(SHOP, id), ':earn': 'EARN#' },
      ConsistentRead: true,
    });
    figures.set(
      id,
      customer && {
        current_points: customer.record.current_points,
        lifetime_points: customer.record.lifetime_points,
        orders_count: customer.record.orders_count,
        total_spend: customer.record.total_spend,
        earning_entries: entries,
      },
    );
  });
  return figures;
}

/** The orders: round-robin over the customers, then shuffled; subtotals from $1.00 to $300.99. */
export function burstOrders(settings: Pick<BurstSettings, 'orders' | 'customers'>): BurstOrder[] {
  const ids = customerIds(settings.customers);
  return shuffled(
    Array.from({ length: settings.orders }, (_, i) => ({ customerId: ids[i % ids.length]!, subtotalMinor: 100 + ((i * 7919) % 30_000) })),
  );
}

/**
 * The whole section, against a twin of its own (its own DynamoDB Local and configuration). Points the
 * bench process's document client at that twin's table to read the end state.
 */
export async function webhookBurst(settings: BurstSettings): Promise<BurstFigures> {
  const ids = customerIds(settings.customers);
  const warmUpMember = String(FIRST_CUSTOMER + settings.customers);
  const dir = await mkdtemp(join(tmpdir(), 'loyalty-burst-'));
  const configFile = join(dir, 'burst.json');
  await writeFile(configFile, JSON.stringify(burstConfig([...ids, warmUpMember])));
  const twin = await startTwinProcess({ config: configFile });
  try {
    process.env.TABLE_NAME = TWIN_TABLE;
    process.env.DYNAMODB_ENDPOINT = twin.dynamodb;
    resetEnv();
    resetDocumentClient();

    const orders = burstOrders(settings);
    const warmUp = await createDeliveries(
      twin.platformUrl,
      Array.from({ length: WARM_UP_ORDERS }, (_, i) => ({ customerId: warmUpMember, subtotalMinor: 1_000 + i })),
    );
    const deliveries = await createDeliveries(twin.platformUrl, orders);
    await send(twin.url, warmUp, settings.senders);

    const first = await measuredPass(twin.url, deliveries, settings.senders);
    const duplicates = await measuredPass(twin.url, deliveries, settings.senders);
    const mismatches = endStateMismatches(expectedEndState(ids, orders, RULE), await storedFigures(ids));
    const exactCustomers = ids.length - mismatches.length;
    return { ...settings, first, duplicates, minimum: DESIGN_MINIMUM, exactCustomers, mismatches };
  } finally {
    const exited = new Promise((resolve) => twin.process.once('exit', resolve));
    twin.process.kill('SIGINT');
    await exited;
    await rm(dir, { recursive: true, force: true });
  }
}
