// Thousands (bench) or hundreds (npm test) of mixed requests in parallel (adjustments, purchases, refunds of
// redemptions, paid orders,
// tax-inclusive orders with gift cards, orders paid later or voided, partial refunds, cancellations, duplicate
// webhook deliveries, runs of the scheduled jobs), platform faults injected at random, then an audit of every
// customer from a full table scan: the money and order invariants must hold exactly, spend and points against
// the eligible amount of SHOPIFY-CONTRACT.md ("What an order earns") computed here from Shopify's own payloads.
// The mix and the audit are in test/support/invariants-load.ts; invariants-under-db-faults.test.ts runs them
// again with DynamoDB throttling, failing and losing answers.
import type { Twin } from '../../infra/local/twin';
import { startTestTwin } from '../support/twin';
import {
  auditEvents,
  auditFigures,
  auditInvariants,
  CODE_FAILED,
  describeEvents,
  describeRun,
  enrolAll,
  LOAD_CONFIG,
  loadDeliveries,
  type LoadOptions,
  runLoadMix,
  settle,
} from '../support/invariants-load';

// Operations in `npm test`: about as long as the run was before orders joined the mix.
const REQUESTS = Number(process.env.LOAD_REQUESTS ?? 250);
/** `npm run bench:invariants` sets LOAD_REQUESTS and reads the figures this mode prints. */
const LONG_MODE = process.env.LOAD_REQUESTS !== undefined;
// Thousands of operations on a busy machine take more than five minutes.
jest.setTimeout(LONG_MODE ? 1_800_000 : 300_000);
const options: LoadOptions = {
  requests: REQUESTS,
  concurrency: Number(process.env.LOAD_CONCURRENCY ?? 16),
  seed: Number(process.env.LOAD_SEED ?? 42),
  jobsEvery: 40,
};

let twin: Twin;
beforeAll(async () => {
  // Webhook deliveries queued as in the stack, or inline with LOAD_DELIVERIES=inline.
  twin = await startTestTwin(LOAD_CONFIG, { throttling: false, deliveries: loadDeliveries() });
});
afterAll(async () => {
  await twin.stop();
});

describe('invariants under load', () => {
  it('keep every balance exact, never negative, spend and order effects counted once, one code per active purchase, nothing pending after reconciliation', async () => {
    await enrolAll(twin);
    const load = await runLoadMix(twin, options);
    const settled = await settle(twin);
    expect(settled.jobsStatus).toBe(200);

    const audit = await auditInvariants(twin, load);
    // Every committed change has its events on the bus, none is there without its change.
    const events = await auditEvents(twin);
    // The program's figures, counted from those events, equal to what a full read gives.
    const figures = await auditFigures(twin, ['load']);
    if (LONG_MODE) process.stdout.write(`${figures.join('\n')}\n`);
    if (LONG_MODE)
      process.stdout.write(`invariants under load: ${describeRun(options, load, audit, settled)}; ${describeEvents(events)}\n`);

    expect(load.hangs).toEqual([]);
    // 500 is expected only as the spec's code-creation failure; anything else is a bug.
    expect(
      load.answers.filter((answer) => answer.status >= 500 && answer.status !== 503 && answer.body.errors?.[0]?.detail !== CODE_FAILED),
    ).toEqual([]);
    // The scheduled jobs ran during the load, and ran clean.
    expect(load.jobRuns).toEqual({ 200: Math.floor(REQUESTS / options.jobsEvery!) });
    // Each run said where its time went: its own work is part of it, never more.
    expect(load.jobWorkMs.filter((ms, i) => !(ms > 0 && ms <= load.jobRunMs[i]!))).toEqual([]);
    expect(load.answers.filter((answer) => answer.status < 300).length).toBeGreaterThan(load.answers.length / 3);
    expect(
      Object.entries(load.platformCalls)
        .filter(([kind]) => kind.startsWith('order'))
        .reduce((total, [, n]) => total + n, 0),
    ).toBeGreaterThan(REQUESTS / 10);
    // Actions were in the mix: awarded, and refused past their limits.
    expect(load.answers.filter((answer) => answer.request === 'action' && answer.status === 201).length).toBeGreaterThan(0);
    expect(load.answers.filter((answer) => answer.request === 'action' && answer.status === 422).length).toBeGreaterThan(0);
    // Redemptions were undone in the mix, and a repeat was refused.
    expect(audit.redemptionRefunds).toBeGreaterThan(0);
    // Every kind of order was in the mix.
    expect(Object.keys(load.platformCalls)).toEqual(
      expect.arrayContaining(['order', 'order taxes included', 'order pending', 'order authorized', 'pay', 'void', 'refund', 'cancel']),
    );
    // The events were there: every kind of change in the mix announced.
    expect(Object.keys(events.byType)).toEqual(
      expect.arrayContaining(['points.adjusted', 'points.earned', 'points.approved', 'reward.purchased', 'reward.refunded']),
    );
  });
});
