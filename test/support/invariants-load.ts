// The invariants-under-load run, shared by test/e2e/invariants-under-load.test.ts and its database-fault variant
// test/e2e/invariants-under-db-faults.test.ts: the shop, the mix of operations (adjustments, purchases, refunds
// of redemptions, paid orders, tax-inclusive orders with gift cards, orders paid later or voided, partial refunds, cancellations,
// duplicate webhook deliveries, runs of the scheduled jobs), the settling runs after it, and the audit of every
// customer from a full table scan: the money and order invariants must hold exactly, spend and points against
// the eligible amount of SHOPIFY-CONTRACT.md ("What an order earns") computed here from Shopify's own payloads.
import { main } from '../../infra/cli/main';
import type { Twin } from '../../infra/local/twin';
import { eventsLackingMemberFacts } from './committed-events';
import { jobRunAnswer } from './jobs';
import { scanAll } from './test-table';
import { apiClient, type ApiResponse, drainDeliveries } from './twin';
import { platformControls } from './orders';
import { random } from './random';

export const LOAD_KEY = 'load_test_key_0001';
export const LOAD_CUSTOMERS = Array.from({ length: 12 }, (_, i) => String(9001 + i));

export const LOAD_CONFIG = {
  shops: [
    {
      id: 'load',
      name: 'Load',
      currency: 'USD',
      referral_base_url: 'https://load.example/',
      api_keys: [{ name: 'Load', scope: 'full', key: LOAD_KEY }],
      earning_rules: [
        { id: 'per-dollar', name: 'A point per dollar', action: 'purchase', category: 'purchase', points_to_give: 1, spend_unit: 1 },
        { id: 'join', name: 'Join', action: 'signup', category: 'signup', points_to_give: 50 },
        // Earned through POST .../actions: once per lifetime (the default), and twice a UTC day.
        { id: 'follow', name: 'Follow us', action: 'follow_on_instagram', category: 'social', points_to_give: 40 },
        {
          id: 'review',
          name: 'Review',
          action: 'leave_a_review',
          category: 'engagement',
          points_to_give: 15,
          limit: { times: 2, per: 'day' },
        },
      ],
      rewards: [
        { id: 'fixed', name: '$5 off', points_cost: 300, discount_amount: 5, expiry_days: 30, created_at: '2025-01-01T00:00:00.000Z' },
        {
          id: 'flex',
          name: 'Flexible',
          redemption_mode: 'flexible',
          points_cost: 100,
          discount_amount: 1,
          flexible_config: { min_points: 100, max_points: 1000, points_per_unit: 100 },
          created_at: '2025-01-01T00:00:00.000Z',
        },
      ],
      platform: {
        customers: LOAD_CUSTOMERS.map((id) => ({ id, email: `load${id}@example.com`, first_name: 'L', last_name: id, created_at: null })),
      },
    },
  ],
};

/**
 * How the load's twin processes webhook deliveries: queued as the stack does (the receiver answers once the
 * delivery is queued; the settling runs drain the queue first), or inline with LOAD_DELIVERIES=inline. Queued,
 * the audit allows order reconciliation to apply an order's latest state before its earlier deliveries
 * (auditInvariants).
 */
export function loadDeliveries(): 'inline' | 'queued' {
  return process.env.LOAD_DELIVERIES === 'inline' ? 'inline' : 'queued';
}

/** The spec's code-creation failure: the one 500 the API gives by design under platform faults. */
export const CODE_FAILED = 'Failed to create discount code. Points have not been deducted.';

/** Minor units of a decimal amount string ("120.75" -> 12075), so sums are exact. */
const cents = (amount: string | number) => Math.round(Number(amount) * 100);
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
const countIn = (table: Record<string, number>, key: string | number) => {
  table[key] = (table[key] ?? 0) + 1;
};

const PAID = new Set(['paid', 'partially_refunded', 'refunded']);

/**
 * The contract's figures for one order, from its REST payload alone: whether it counts (paid, not cancelled
 * or voided), its eligible amount before refunds (subtotal less included line taxes, less gift-card lines)
 * and after them (refunded lines on the same basis), in cents.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- REST payloads
function contractFigures(order: Record<string, any>): { counts: boolean; eligible: number; left: number } {
  const included = order.taxes_included === true;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- REST payloads
  const lines: Array<Record<string, any>> = order.line_items;
  const tax = included ? sum(lines.flatMap((line) => line.tax_lines.map((taxLine: { price: string }) => cents(taxLine.price)))) : 0;
  const giftCards = sum(
    lines
      .filter((line) => line.gift_card)
      .map((line) => cents(line.price) * line.quantity - sum(line.discount_allocations.map((d: { amount: string }) => cents(d.amount)))),
  );
  const eligible = Math.max(0, cents(order.subtotal_price) - tax - giftCards);
  const refunded = sum(
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- REST payloads
    order.refunds.flatMap((refund: Record<string, any>) =>
      refund.refund_line_items
        .filter((line: { line_item: { gift_card: boolean } }) => !line.line_item.gift_card)
        .map((line: { subtotal: number; total_tax: number }) => cents(line.subtotal) - (included ? cents(line.total_tax) : 0)),
    ),
  );
  const counts = PAID.has(order.financial_status) && !order.cancelled_at;
  return { counts, eligible, left: counts ? Math.max(0, eligible - refunded) : 0 };
}

/** Lines of a tax-inclusive order (20 % tax inside each price), one of them sometimes a gift card. */
function taxInclusiveLines(next: () => number) {
  return Array.from({ length: 1 + Math.floor(next() * 3) }, (_, i) => {
    const price = 100 + Math.floor(next() * 20000);
    const quantity = 1 + Math.floor(next() * 2);
    const giftCard = i > 0 && next() < 0.3;
    const tax = giftCard ? 0 : Math.round((price * quantity) / 6);
    return { price: (price / 100).toFixed(2), quantity, gift_card: giftCard, ...(tax ? { tax: (tax / 100).toFixed(2) } : {}) };
  });
}

export interface LoadOptions {
  requests: number;
  concurrency: number;
  seed: number;
  /** A run of every scheduled job (`POST /_jobs/run`) as every this-many-th operation. */
  jobsEvery?: number;
  /** An API call not answered within this many ms is a hang; default 120 s. */
  hangMs?: number;
}

/** One API answer of the mix: what was asked, and what came back. */
export interface ApiAnswer {
  request: 'enrol' | 'adjust' | 'purchase fixed' | 'purchase flex' | 'action' | 'refund';
  status: number;
  body: ApiResponse['body'];
  /** The adjustment's note, unique per request: its entry, if any, carries it. */
  note?: string;
  /** The reward history entry a refund asked to undo. */
  entryId?: string;
}

export interface LoadResult {
  /** API answers by status. */
  statuses: Record<number, number>;
  answers: ApiAnswer[];
  /** Requests that got no answer within `hangMs`. */
  hangs: string[];
  platformCalls: Record<string, number>;
  webhookStatuses: Record<string, number>;
  /** Answers of `POST /_jobs/run` by status, and those that were not 200. */
  jobRuns: Record<number, number>;
  jobErrors: Array<{ status: number; body: ApiResponse['body'] }>;
  /** Milliseconds each `POST /_jobs/run` of the mix took to answer. */
  jobRunMs: number[];
  /** Each run's Server-Timing: the jobs' own work (the rest of a run's time is waiting for its turn). */
  jobWorkMs: number[];
  /** Each job's own time in each run, by job. */
  jobMs: Record<string, number[]>;
  /** Milliseconds the twin took to answer each webhook delivery attempt of the mix (as the simulator timed them). */
  receiptMs: number[];
  loadSeconds: number;
}

/** Enrols every customer of the shop (before the load: the audit expects each to be a member). */
export async function enrolAll(twin: Twin): Promise<void> {
  const api = apiClient(twin.url, LOAD_KEY);
  for (const id of LOAD_CUSTOMERS) {
    const answer = await api.post('/v1/customers', { platform_customer_id: id });
    if (answer.status !== 201) throw new Error(`enrolling ${id} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  }
}

/** The mix: `requests` operations, `concurrency` at once, drawn from `seed`; platform faults switched at random. */
export async function runLoadMix(twin: Twin, options: LoadOptions): Promise<LoadResult> {
  const api = apiClient(twin.url, LOAD_KEY, { timeoutMs: options.hangMs ?? 120_000 });
  const platform = platformControls(twin);
  const next = random(options.seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const result: LoadResult = {
    statuses: {},
    answers: [],
    hangs: [],
    platformCalls: {},
    webhookStatuses: {},
    jobRuns: {},
    jobErrors: [],
    jobRunMs: [],
    jobWorkMs: [],
    jobMs: {},
    receiptMs: [],
    loadSeconds: 0,
  };
  // What the load has done to each order so far, updated before each call so that parallel calls never
  // refund more than is left, touch a cancelled order, or refund one whose payment has not been recorded.
  const orders: Array<{ id: string; left: number; cancelled: boolean; payment: 'paid' | 'awaiting' | 'settling' }> = [];
  // Purchases answered 201, each refunded at most once by the mix (taken from the list before the call);
  // now and then one is asked again, which must be refused.
  const sold: Array<{ customer: string; id: string }> = [];
  const refunded: Array<{ customer: string; id: string }> = [];
  const deliveries: string[] = [];

  const countPlatform = (kind: string, webhook: { id: string; status: number | null } | null) => {
    countIn(result.platformCalls, kind);
    if (!webhook) return;
    if (kind !== 'redeliver') deliveries.push(webhook.id);
    countIn(result.webhookStatuses, String(webhook.status));
  };

  const newOrder = async (customer: string) => {
    const kind = next();
    const fields: Record<string, unknown> = { shop: 'load', customer_id: customer };
    if (kind < 0.45) fields.subtotal_price = (1 + Math.floor(next() * 30000) / 100).toFixed(2);
    else Object.assign(fields, { taxes_included: true, line_items: taxInclusiveLines(next) });
    // Cash on delivery or a bank transfer (pending), a payment captured later (authorized).
    if (kind >= 0.7) fields.financial_status = kind < 0.85 ? 'pending' : 'authorized';
    const { order, webhook } = await platform.order(fields);
    orders.push({
      id: String(order.id),
      left: cents(order.subtotal_price),
      cancelled: false,
      payment: fields.financial_status ? 'awaiting' : 'paid',
    });
    countPlatform(
      fields.financial_status ? `order ${String(fields.financial_status)}` : fields.line_items ? 'order taxes included' : 'order',
      webhook,
    );
  };

  const orderOperation = async (roll: number, customer: string) => {
    const open = orders.filter((order) => !order.cancelled && order.left > 0 && order.payment === 'paid');
    const awaiting = orders.filter((order) => !order.cancelled && order.payment === 'awaiting');
    if (roll < 0.45 || open.length === 0) {
      await newOrder(customer);
    } else if (roll < 0.55 && awaiting.length > 0) {
      // Paid at last, or the payment voided: either way the order leaves the awaiting ones before the call.
      const order = pick(awaiting);
      order.payment = 'settling';
      if (next() < 0.65) {
        countPlatform('pay', (await platform.pay(order.id)).webhook);
        order.payment = 'paid';
      } else {
        order.cancelled = true;
        countPlatform('void', (await platform.void(order.id)).webhook);
      }
    } else if (roll < 0.78) {
      const order = pick(open);
      const amount = 1 + Math.floor(next() * Math.min(order.left, 10000));
      order.left -= amount;
      countPlatform('refund', (await platform.refund(order.id, (amount / 100).toFixed(2))).webhook);
    } else if (roll < 0.86) {
      const order = pick(open);
      order.cancelled = true;
      countPlatform('cancel', (await platform.cancel(order.id)).webhook);
    } else if (deliveries.length > 0) {
      countPlatform('redeliver', await platform.redeliver(pick(deliveries)));
    }
  };

  /** Every scheduled job once, as the schedule would run them while the API is busy. */
  const runJobs = async () => {
    const started = performance.now();
    const { status, body, timing } = await jobRunAnswer(twin);
    result.jobRunMs.push(performance.now() - started);
    result.jobWorkMs.push(Object.values(timing).reduce((sum, ms) => sum + ms, 0));
    for (const [name, ms] of Object.entries(timing)) (result.jobMs[name] ??= []).push(ms);
    countIn(result.jobRuns, status);
    if (status !== 200) result.jobErrors.push({ status, body: body as ApiResponse['body'] });
  };

  const call = async (request: ApiAnswer['request'], send: () => Promise<ApiResponse>, note?: string, entryId?: string) => {
    let response: ApiResponse;
    try {
      response = await send();
    } catch (error) {
      if ((error as Error).name !== 'TimeoutError') throw error;
      result.hangs.push(`${request}${note ? ` (${note})` : ''}`);
      return undefined;
    }
    countIn(result.statuses, response.status);
    result.answers.push({
      request,
      status: response.status,
      body: response.body,
      ...(note ? { note } : {}),
      ...(entryId ? { entryId } : {}),
    });
    return response;
  };

  const purchase = async (request: 'purchase fixed' | 'purchase flex', customer: string, body: Record<string, unknown>) => {
    const reward = request === 'purchase fixed' ? 'fixed' : 'flex';
    const response = await call(request, () => api.post(`/v1/rewards/${reward}/purchase`, { customer_identifier: customer, ...body }));
    if (response?.status === 201) sold.push({ customer, id: String(response.body.data.id) });
  };

  const refund = async (first = false) => {
    const again = !first && refunded.length > 0 && next() < 0.15;
    const pool = again ? refunded : sold;
    const [entry] = pool.splice(Math.floor(next() * pool.length), 1);
    if (!entry) return;
    const response = await call(
      'refund',
      () => api.post(`/v1/customers/${entry.customer}/reward-history/${entry.id}/refund`),
      undefined,
      entry.id,
    );
    if (!response || again) return;
    // The platform down (503): the redemption stands and may be asked again later in the mix.
    if (response.status === 503) sold.push(entry);
    else refunded.push(entry);
  };

  const operation = async (i: number) => {
    if (options.jobsEvery && i % options.jobsEvery === options.jobsEvery - 1) return runJobs();
    if (i % 25 === 0) twin.simulator.setFaults({ discount_codes: pick(['ok', 'ok', 'error', 'unreachable'] as const) });
    const customer = pick(LOAD_CUSTOMERS);
    const roll = next();
    if (roll < 0.4) return orderOperation(roll / 0.4, customer);
    const note = `load ${options.seed} #${i}`;
    if (roll < 0.42) return call('enrol', () => api.post('/v1/customers', { platform_customer_id: customer }));
    if (roll < 0.48) {
      // Sent twice at once, as a double click would: the limit holds between them too.
      const action = next() < 0.5 ? 'follow_on_instagram' : 'leave_a_review';
      const earn = () => call('action', () => api.post(`/v1/customers/${customer}/actions`, { action }));
      return Promise.all([earn(), earn()]).then(() => undefined);
    }
    if (roll < 0.68) {
      const adjustment = Math.floor(next() * 400) + 1;
      return call('adjust', () => api.post(`/v1/customers/${customer}/points`, { adjustment, note }), note);
    }
    if (roll < 0.78) {
      const adjustment = -(Math.floor(next() * 300) + 1);
      return call('adjust', () => api.post(`/v1/customers/${customer}/points`, { adjustment, note }), note);
    }
    if (roll < 0.87) return purchase('purchase fixed', customer, {});
    if (roll > 0.93 && sold.length > 0) return refund();
    const points = 100 + Math.floor(next() * 900);
    return purchase('purchase flex', customer, { points });
  };

  const startedAt = Date.now();
  let started = 0;
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (started < options.requests) await operation(started++);
    }),
  );
  twin.simulator.setFaults({ discount_codes: 'ok' });
  // The mix's faults may have refused every refund it asked: its last operation, with the platform up, undoes
  // one redemption more, so every run audits at least one.
  if (sold.length > 0) await refund(true);
  result.loadSeconds = (Date.now() - startedAt) / 1000;
  result.receiptMs = twin.simulator
    .webhooks()
    .flatMap((delivery) => delivery.attempts.flatMap((attempt) => (attempt.ms === undefined ? [] : [attempt.ms])));
  return result;
}

/**
 * After the load, what the schedule would do, once every webhook delivery received was processed (with
 * `deliveries: 'queued'` they may still be in the queue): the purchase reconciler until a run leaves nothing (a run that
 * could not reach the platform or lost a race leaves the purchase for the next, and a loaded machine times
 * platform calls out), then every job once. Order reconciliation catches up any delivery the twin did not
 * answer in time; for the rest it must change nothing (the audit would see a second count).
 */
export async function settle(
  twin: Twin,
): Promise<{ reconciled: Array<Record<string, number>>; jobsStatus: number; jobs: Record<string, Record<string, number>> }> {
  // A request the gateway answered 502 at its timeout may still be running (Lambda would have stopped it; the
  // twin cannot): the settling starts once nothing runs.
  await twin.idle();
  await drainDeliveries(twin);
  const reconciled: Array<Record<string, number>> = [];
  do reconciled.push((await (await fetch(`${twin.url}/_reconcile`, { method: 'POST' })).json()) as Record<string, number>);
  while (reconciled.length < 5 && (reconciled.at(-1)!.failed ?? 0) + (reconciled.at(-1)!.skipped ?? 0) > 0);
  const answer = await fetch(`${twin.url}/_jobs/run`, { method: 'POST' });
  const jobs = (await answer.json()) as Record<string, Record<string, number>>;
  return { reconciled, jobsStatus: answer.status, jobs };
}

export interface AuditFigures {
  customers: number;
  items: number;
  entries: number;
  codes: number;
  approvedPoints: number;
  spentPoints: number;
  spendCents: number;
  orders: number;
  countedOrders: number;
  cancelled: number;
  refundEntries: number;
  taxIncluded: number;
  uncounted: number;
  adjustmentEntries: number;
  purchases: number;
  actionEntries: number;
  /** Redemptions undone by the refund endpoint (their points back as reward_refund entries). */
  redemptionRefunds: number;
}

/**
 * Every customer from a full table scan, against the simulator's orders and codes and the answers the API gave:
 * balance = Σ approved entries − Σ points spent on purchases kept, never negative; one signup entry; no purchase
 * pending, one platform code per active purchase and none other; spend and order count from the counted orders;
 * per order one award per purchase rule and its take-backs; no webhook event left claimed; every adjustment answered 2XX applied exactly once,
 * every one refused (4XX) not at all, every other at most once; every purchase answered 201 active.
 */
export async function auditInvariants(twin: Twin, load: LoadResult): Promise<AuditFigures> {
  const queued = ((await (await fetch(`${twin.url}/_deliveries`)).json()) as { mode: string }).mode === 'queued';
  const items = await scanAll();
  const codes = twin.simulator.discountCodes();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- REST payloads
  const platformOrders = ((await (await fetch(`${twin.platformUrl}/_orders?shop=load`)).json()) as { orders: Array<Record<string, any>> })
    .orders;
  const profiles = items.filter((item) => item.sk === 'PROFILE');
  expect(profiles.map((item) => item.platform_customer_id).sort()).toEqual([...LOAD_CUSTOMERS].sort());
  const figures: AuditFigures = {
    customers: profiles.length,
    items: items.length,
    entries: items.filter((item) => /^(EARN|REDEEM)#/.test(String(item.sk))).length,
    codes: codes.filter((code) => code.shop === 'load').length,
    approvedPoints: 0,
    spentPoints: 0,
    spendCents: 0,
    orders: platformOrders.length,
    countedOrders: 0,
    cancelled: 0,
    refundEntries: 0,
    taxIncluded: 0,
    uncounted: 0,
    adjustmentEntries: 0,
    purchases: 0,
    actionEntries: 0,
    redemptionRefunds: 0,
  };
  for (const id of LOAD_CUSTOMERS) {
    const profile = profiles.find((item) => item.platform_customer_id === id)!;
    const earned = items.filter((item) => String(item.sk).startsWith('EARN#') && String(item.pk).endsWith(`#C#${id}`));
    const purchases = items.filter((item) => String(item.sk).startsWith('REDEEM#') && item.customer_id === id);
    // Refunded by the saga (the code could not be created) and refunded on request (the redemption undone: its
    // status stays, is_refunded is set and an approved reward_refund entry gives the points back).
    const sagaRefunded = purchases.filter((p) => p.status === 'refunded');
    const kept = purchases.filter((p) => p.status !== 'refunded');
    const undone = kept.filter((p) => p.is_refunded === true);
    const active = purchases.filter((p) => p.status === 'active' && p.is_refunded !== true);
    const spentOn = (list: typeof purchases) => list.reduce((total, p) => total + Number(p.points_spent), 0);

    expect(profile.current_points).toBeGreaterThanOrEqual(0);
    const approved = earned.filter((e) => e.status === 'approved').reduce((total, e) => total + Number(e.points), 0);
    // balance = Σ approved entries − purchases + refunded purchases, exactly.
    expect({ id, balance: profile.current_points }).toEqual({ id, balance: approved - spentOn(purchases) + spentOn(sagaRefunded) });
    const spent = spentOn(kept);
    expect({ id, redeemed: profile.redeemed_points }).toEqual({ id, redeemed: spent - spentOn(undone) });
    // One reward_refund entry per undone redemption, approved, with exactly its points.
    const refundEntries = earned.filter((e) => e.action === 'reward_refund');
    expect({ id, refunds: refundEntries.map((e) => [e.reward_history_entry_id, e.status, e.points]).sort() }).toEqual({
      id,
      refunds: undone.map((p) => [p.id, 'approved', p.points_spent]).sort(),
    });
    figures.redemptionRefunds += undone.length;
    expect({ id, signups: earned.filter((e) => e.action === 'signup').length }).toEqual({ id, signups: 1 });
    expect(purchases.filter((p) => p.status === 'pending')).toEqual([]);
    expect(kept.every((p) => p.status === 'active')).toBe(true);
    const customerCodes = codes
      .filter((code) => code.shop === 'load' && code.customer_id === id)
      .map((code) => code.code)
      .sort();
    // On a mismatch, the answers about the purchases whose code is missing or extra say how it came about.
    const expectedCodes = active.map((p) => String(p.discount_code)).sort();
    const odd = purchases.filter(
      (p) => customerCodes.includes(String(p.discount_code)) !== expectedCodes.includes(String(p.discount_code)),
    );
    const oddAnswers = load.answers
      .filter((answer) => odd.some((p) => answer.entryId === p.id || answer.body?.data?.id === p.id))
      .map((answer) => ({ request: answer.request, status: answer.status, errors: answer.body?.errors }));
    expect({ id, codes: customerCodes, ...(odd.length > 0 ? { oddAnswers } : {}) }).toEqual({ id, codes: expectedCodes });

    // Spend (a points shop: currency units) = Σ of the eligible amount left over the member's counted orders;
    // the order count leaves out cancelled, voided and unpaid ones.
    const own = platformOrders.filter((order) => String(order.customer?.id) === id);
    const counted = own.filter((order) => contractFigures(order).counts);
    const spendCents = sum(counted.map((order) => contractFigures(order).left));
    expect({ id, spend: cents(Number(profile.total_spend ?? 0)), orders: profile.orders_count ?? 0 }).toEqual({
      id,
      spend: spendCents,
      orders: counted.length,
    });

    // Each order's effects once: one purchase entry per rule once it was paid (none for an order never
    // paid), awarding a point per whole dollar of its eligible amount, and what it awarded less what
    // refunds asked back is the point a dollar of what is left (nothing once cancelled or voided).
    for (const order of own) {
      const { eligible, left } = contractFigures(order);
      const entries = earned.filter((e) => e.order_id === String(order.id));
      const awards = entries.filter((e) => e.action === 'purchase');
      const takeBacks = entries.filter((e) => e.action === 'refund');
      const everPaid = PAID.has(order.financial_status) || (order.financial_status !== 'voided' && order.cancelled_at);
      const expectedAwards = everPaid && eligible >= 100 ? ['per-dollar'] : [];
      if (queued) {
        // Queued: order reconciliation may read an order whose earlier snapshots are still queued and apply
        // the order as it stands (cancelled, or partly refunded) first; the earlier snapshots then change
        // nothing (SHOPIFY-CONTRACT.md: an older state of an order never undoes a newer one). So at most one
        // award, between what is left and what was paid, and none only if nothing is left to earn.
        const awarded = awards.map((e) => e.earning_rule_id);
        const allowed = Math.floor(left / 100) > 0 ? [expectedAwards] : [expectedAwards, []];
        expect({ order: order.id, awardsAllowed: allowed.some((a) => JSON.stringify(a) === JSON.stringify(awarded)) }).toEqual({
          order: order.id,
          awardsAllowed: true,
        });
      } else {
        expect({ order: order.id, awards: awards.map((e) => e.earning_rule_id) }).toEqual({ order: order.id, awards: expectedAwards });
      }
      if (awards.length === 0) {
        expect({ order: order.id, takeBacks: takeBacks.length }).toEqual({ order: order.id, takeBacks: 0 });
        figures.uncounted += everPaid ? 0 : 1;
        continue;
      }
      const net = Number(awards[0]!.points) + takeBacks.reduce((total, e) => total + Number(e.requested_points ?? e.points), 0);
      expect({ order: order.id, net }).toEqual({ order: order.id, net: Math.floor(left / 100) });
      if (queued) {
        const award = Number(awards[0]!.points);
        expect({ order: order.id, awardWithin: award >= Math.floor(left / 100) && award <= Math.floor(eligible / 100) }).toEqual({
          order: order.id,
          awardWithin: true,
        });
      } else {
        expect({ order: order.id, award: awards[0]!.points }).toEqual({ order: order.id, award: Math.floor(eligible / 100) });
      }
      figures.refundEntries += takeBacks.length;
      if (order.taxes_included) figures.taxIncluded += 1;
    }
    figures.approvedPoints += approved;
    figures.spentPoints += spent;
    figures.spendCents += spendCents;
    figures.countedOrders += counted.length;
    figures.cancelled += own.length - counted.length;
  }
  expect(items.filter((item) => String(item.sk).startsWith('ORDER#')).length).toBe(platformOrders.length);
  // Every webhook event applied is marked done; a failed one was released for its redelivery. None is left claimed.
  expect(items.filter((item) => String(item.sk).startsWith('EVENT#') && item.status !== 'done')).toEqual([]);

  // Each adjustment request by its note: applied once when answered 2XX, never when refused, at most once otherwise
  // (a 5XX may follow a commit whose answer was lost).
  const adjustments = items.filter((item) => item.action === 'manual_adjustment');
  const byNote = new Map<string, number>();
  for (const entry of adjustments) byNote.set(String(entry.note), (byNote.get(String(entry.note)) ?? 0) + 1);
  const sent = load.answers.filter((answer) => answer.request === 'adjust');
  const applied = (answer: ApiAnswer) => byNote.get(answer.note!) ?? 0;
  expect(sent.filter((answer) => answer.status < 300 && applied(answer) !== 1)).toEqual([]);
  expect(sent.filter((answer) => answer.status >= 400 && answer.status < 500 && applied(answer) !== 0)).toEqual([]);
  expect(sent.filter((answer) => applied(answer) > 1)).toEqual([]);
  figures.adjustmentEntries = adjustments.length;

  // Each purchase answered 201 is there, active, with its code; no request made more than one purchase.
  const purchaseItems = items.filter((item) => String(item.sk).startsWith('REDEEM#'));
  const sold = load.answers.filter((answer) => answer.request.startsWith('purchase') && answer.status === 201);
  const byId = new Map(purchaseItems.map((item) => [String(item.id), item]));
  expect(sold.filter((answer) => byId.get(String(answer.body.data?.id))?.status !== 'active').map((answer) => answer.body)).toEqual([]);
  expect(purchaseItems.length).toBeLessThanOrEqual(load.answers.filter((answer) => answer.request.startsWith('purchase')).length);
  figures.purchases = purchaseItems.length;

  // Actions within their limits: each counter holds exactly the awards of its rule and period (one transaction
  // writes both), never more than the limit; each award answered 201 is there, approved, once.
  const actionEntries = items.filter(
    (item) => String(item.sk).startsWith('EARN#') && ['follow', 'review'].includes(String(item.earning_rule_id)),
  );
  const periodOf = (entry: Record<string, unknown>) =>
    entry.earning_rule_id === 'follow' ? 'lifetime' : `day#${String(entry.created_at).slice(0, 10)}`;
  const awardsByCounter = new Map<string, number>();
  for (const entry of actionEntries) {
    const counter = `${String(entry.pk)} ACTIONCOUNT#${String(entry.earning_rule_id)}#${periodOf(entry)}`;
    awardsByCounter.set(counter, (awardsByCounter.get(counter) ?? 0) + 1);
  }
  const counters = new Map(
    items
      .filter((item) => String(item.sk).startsWith('ACTIONCOUNT#'))
      .map((item) => [`${String(item.pk)} ${String(item.sk)}`, Number(item.awards)]),
  );
  expect(counters).toEqual(awardsByCounter);
  expect([...counters].filter(([counter, awards]) => awards > (counter.includes('#follow#') ? 1 : 2))).toEqual([]);
  const earnedIds = new Map(actionEntries.map((entry) => [String(entry.id), entry]));
  const awarded = load.answers.filter((answer) => answer.request === 'action' && answer.status === 201);
  expect(
    awarded.filter((answer) => earnedIds.get(String(answer.body.data?.id))?.status !== 'approved').map((answer) => answer.body),
  ).toEqual([]);
  expect(new Set(awarded.map((answer) => String(answer.body.data.id))).size).toBe(awarded.length);
  figures.actionEntries = actionEntries.length;
  // Each refund answered 200 undid its redemption; a refund refused with a 4XX changed nothing of one it was the
  // first to ask for (a repeat is refused as already refunded). No entry is both used and refunded.
  const refunds = load.answers.filter((answer) => answer.request === 'refund');
  expect(refunds.filter((answer) => answer.status === 200 && byId.get(answer.entryId!)?.is_refunded !== true)).toEqual([]);
  expect(purchaseItems.filter((item) => item.is_refunded === true && item.status !== 'active' && item.status !== 'refunded')).toEqual([]);
  expect(
    refunds.filter((answer) => answer.status >= 400 && answer.status < 500 && answer.body.errors?.[0]?.title !== 'Reward Already Refunded'),
  ).toEqual([]);
  return figures;
}

/** The long mode's line: what the load did, what the settling runs did, and what the audit found. */
export function describeRun(
  options: LoadOptions,
  load: LoadResult,
  audit: AuditFigures,
  settled: Awaited<ReturnType<typeof settle>>,
): string {
  return (
    `${options.requests} operations, ${options.concurrency} at once, ${load.loadSeconds.toFixed(1)} s; ` +
    `${describeTimings(load)}; ` +
    `API statuses ${JSON.stringify(load.statuses)}; job runs ${JSON.stringify(load.jobRuns)}; ` +
    `platform calls ${JSON.stringify(load.platformCalls)}, webhook answers ${JSON.stringify(load.webhookStatuses)}; ` +
    `${audit.customers} customers audited (${audit.entries} history entries, ${audit.adjustmentEntries} adjustments, ` +
    `${audit.purchases} purchases (${audit.redemptionRefunds} undone by a refund), ${audit.actionEntries} action awards, ${audit.codes} discount codes, ${audit.items} items read in the audit); ` +
    `${audit.orders} orders (${audit.cancelled} not counted: cancelled, voided or unpaid, of which ${audit.uncounted} never paid; ` +
    `${audit.taxIncluded} tax-inclusive ones earned; ${audit.refundEntries} take-back entries), ` +
    `spend ${(audit.spendCents / 100).toFixed(2)} USD over ${audit.countedOrders} counted orders, ` +
    `${audit.approvedPoints} approved points − ${audit.spentPoints} spent = ${audit.approvedPoints - audit.spentPoints} in balances; ` +
    `purchase reconciler runs ${JSON.stringify(settled.reconciled)}, then order reconciliation ${JSON.stringify(settled.jobs.order_reconciliation)}`
  );
}

/** The nearest-rank percentile `p` (0-100) of `values`, NaN when there are none. */
function percentileOf(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** The long mode's timings: webhook receipt p50/p99 (as Shopify would wait) and the jobs runs' times during the mix. */
export function describeTimings(load: LoadResult): string {
  const ms = (value: number) => `${Math.round(value)} ms`;
  const receipts = load.receiptMs;
  const runs = load.jobRunMs;
  return (
    `webhook receipt p50 ${ms(percentileOf(receipts, 50))}, p99 ${ms(percentileOf(receipts, 99))}, max ${ms(Math.max(0, ...receipts))} over ${receipts.length} attempts; ` +
    `POST /_jobs/run p50 ${ms(percentileOf(runs, 50))}, max ${ms(Math.max(0, ...runs))} over ${runs.length} runs ` +
    '(' +
    `the jobs' own work p50 ${ms(percentileOf(load.jobWorkMs, 50))}, max ${ms(Math.max(0, ...load.jobWorkMs))}: ` +
    Object.entries(load.jobMs)
      .map(([name, runs]) => `${name} p50 ${ms(percentileOf(runs, 50))}, max ${ms(Math.max(0, ...runs))}`)
      .join(', ') +
    ')'
  );
}

export interface EventAudit {
  /** Events listed by GET /_events, redeliveries included. */
  listed: number;
  /** Distinct event ids on the bus (each committed event counted once). */
  distinct: number;
  /** Events committed in the table (DOMAIN_EVENT items). */
  committed: number;
  /** Distinct events by type. */
  byType: Record<string, number>;
  /** History entries (earning and reward) matched to the events that announce them. */
  entriesAnnounced: number;
}

/**
 * Every committed change has its events on the bus, and none is there without its change (EVENTS-CONTRACT.md):
 * the bus's distinct ids are exactly the DOMAIN_EVENT items committed in the table (a redelivery may list one
 * twice, always the same event); every earning-history entry is named by an event's `earning_history_entry_id`,
 * every redemption that stood (not refunded by the saga, which marks it `refunded` and `is_refunded`) by a
 * `reward.purchased` and, once undone on request, a `reward.refunded`; every entry, order and member an event
 * names exists, in the event's own shop; no entry is named by two distinct events of one type.
 */
export async function auditEvents(twin: Twin): Promise<EventAudit> {
  const answer = await fetch(`${twin.url}/_events`);
  expect(answer.status).toBe(200);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- events as the bus delivered them
  const listed = ((await answer.json()) as { events: Array<Record<string, any>> }).events;
  // Read after the bus: every event committed before the listing is in it (GET /_events waits for the reader).
  const items = await scanAll();

  expect(listed.filter((event) => typeof event.id !== 'string' || event.id === '')).toEqual([]);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const byId = new Map<string, Record<string, any>>();
  const redelivered: string[] = [];
  for (const event of listed) {
    const first = byId.get(event.id);
    if (first === undefined) byId.set(event.id, event);
    else if (JSON.stringify(first) !== JSON.stringify(event)) redelivered.push(event.id);
  }
  // A redelivery is the same event, never another one under the same id.
  expect(redelivered).toEqual([]);
  const events = [...byId.values()];

  // The table's committed events and the bus's: the same ids, none missing, none extra.
  const committed = items.filter((item) => String(item.pk).startsWith('DOMAIN_EVENT#') && item.sk === 'DOMAIN_EVENT');
  const committedIds = committed.map((item) => String((item.event as { id: string }).id)).sort();
  expect(new Set(committedIds).size).toBe(committedIds.length);
  expect({ missing_from_bus: committedIds.filter((id) => !byId.has(id)) }).toEqual({ missing_from_bus: [] });
  const committedSet = new Set(committedIds);
  expect({ not_committed: [...byId.keys()].filter((id) => !committedSet.has(id)) }).toEqual({ not_committed: [] });

  const key = (shop: unknown, id: unknown) => `${String(shop)} ${String(id)}`;
  const shopOf = (item: Record<string, unknown>) => String(item.shop_id ?? String(item.pk).split('#')[1]);
  const earned = items.filter((item) => String(item.sk).startsWith('EARN#'));
  const redeemed = items.filter((item) => String(item.sk).startsWith('REDEEM#'));
  const earnedIds = new Set(earned.map((item) => key(shopOf(item), item.id)));
  const redeemedById = new Map(redeemed.map((item) => [key(shopOf(item), item.id), item]));
  const orderIds = new Set(
    items.filter((item) => String(item.sk).startsWith('ORDER#')).map((item) => key(shopOf(item), String(item.sk).slice('ORDER#'.length))),
  );
  const members = new Set(items.filter((item) => item.sk === 'PROFILE').map((item) => key(shopOf(item), item.platform_customer_id)));

  // Every event names what exists: its member, and the entries and order it is about.
  const orphans = events.filter(
    (event) =>
      (event.type !== 'customer.erased' && !members.has(key(event.shop_id, event.customer_id))) ||
      (event.earning_history_entry_id !== undefined && !earnedIds.has(key(event.shop_id, event.earning_history_entry_id))) ||
      (event.reward_history_entry_id !== undefined && !redeemedById.has(key(event.shop_id, event.reward_history_entry_id))) ||
      (event.order_id !== undefined && event.order_id !== null && !orderIds.has(key(event.shop_id, event.order_id))),
  );
  expect(orphans).toEqual([]);

  // Every event about a member carries what an e-mail needs: email, first_name, points_balance and tier.
  expect(eventsLackingMemberFacts(events)).toEqual([]);

  // Every entry is announced: earning entries by their id, redemptions by their purchase and their refund.
  const announcedEarnings = new Set(
    events
      .filter((event) => event.earning_history_entry_id !== undefined)
      .map((event) => key(event.shop_id, event.earning_history_entry_id)),
  );
  const announcedAs = (type: string) =>
    new Set(events.filter((event) => event.type === type).map((event) => key(event.shop_id, event.reward_history_entry_id)));
  const purchased = announcedAs('reward.purchased');
  const refunded = announcedAs('reward.refunded');
  const unannounced = [
    ...earned.filter((item) => !announcedEarnings.has(key(shopOf(item), item.id))).map((item) => ({ entry: 'earning', ...item })),
    ...redeemed
      .filter((item) => item.status !== 'refunded' && !purchased.has(key(shopOf(item), item.id)))
      .map((item) => ({ entry: 'reward', missing: 'reward.purchased', ...item })),
    ...redeemed
      .filter((item) => item.status !== 'refunded' && item.is_refunded === true && !refunded.has(key(shopOf(item), item.id)))
      .map((item) => ({ entry: 'reward', missing: 'reward.refunded', ...item })),
  ];
  expect(unannounced).toEqual([]);
  // A redemption the saga refunded (its code never existed) was never a reward: no event says it was bought.
  expect(redeemed.filter((item) => item.status === 'refunded' && purchased.has(key(shopOf(item), item.id)))).toEqual([]);

  // Each change announced once: no entry named by two distinct events of one type (a retried change that
  // committed again under a new event id would show here, its entry once and its event twice).
  const announcements = new Map<string, string[]>();
  for (const event of events) {
    for (const field of ['earning_history_entry_id', 'reward_history_entry_id'] as const) {
      if (event[field] === undefined) continue;
      const at = `${event.type} ${key(event.shop_id, event[field])}`;
      announcements.set(at, [...(announcements.get(at) ?? []), String(event.id)]);
    }
  }
  expect([...announcements].filter(([, ids]) => ids.length > 1)).toEqual([]);

  const byType: Record<string, number> = {};
  for (const event of events) byType[event.type] = (byType[event.type] ?? 0) + 1;
  return {
    listed: listed.length,
    distinct: events.length,
    committed: committed.length,
    byType,
    entriesAnnounced: earned.length + redeemed.filter((item) => item.status !== 'refunded').length,
  };
}

/** The long mode's line about the events: listed, distinct, committed, by type. */
export function describeEvents(events: EventAudit): string {
  return (
    `events: ${events.listed} listed on the bus, ${events.distinct} distinct ids, ${events.committed} committed in the table, ` +
    `${events.entriesAnnounced} history entries announced; by type ${JSON.stringify(events.byType)}`
  );
}

/**
 * The program's figures after the run (docs/admin.md#figures): once every delivered event is counted, `npx loyalty
 * stats verify` finds them equal to a full read of each shop. Answers its output lines.
 */
export async function auditFigures(twin: Twin, shops: readonly string[]): Promise<string[]> {
  await twin.eventStream.caughtUp();
  await twin.figures.idle();
  expect(twin.figures.deadLetters()).toEqual([]);
  const lines: string[] = [];
  for (const shop of shops) {
    const out: string[] = [];
    const code = await main(['stats', 'verify', '--shop', shop, '--endpoint', twin.dynamodbEndpoint, '--table', twin.tableName], {
      out: (line: string) => out.push(line),
      err: (line: string) => out.push(line),
    } as never);
    expect({ shop, code, out }).toEqual({
      shop,
      code: 0,
      out: expect.arrayContaining([expect.stringMatching(/the figures agree with a full read/)]),
    });
    lines.push(...out);
  }
  return lines;
}
