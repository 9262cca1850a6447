// The twin delivers committed domain events as the cloud does: recorded in their change's transaction
// (shared/data/commit.ts), carried by the table's stream to the bus (the twin's reader over DynamoDB Local,
// running the cloud's delivery handler), listed by GET /_events once the reader has caught up, handed to
// the bus's subscribers, and kept back, never lost, while the bus refuses (PUT /_faults "bus").
import { randomUUID } from 'node:crypto';
import type { Twin } from '../../infra/local/twin';
import { commit, namedWrite } from '../../shared/data/commit';
import { tableName } from '../../shared/data/client';
import type { CommittedEvent, EarningEvent } from '../../shared/domain/events';
import { shopConfig } from '../fixtures/shop-config';
import { eventually } from '../support/twin-process';
import { startTestTwin } from '../support/twin';

jest.setTimeout(120_000);

const SHOP = 'bus';
let twin: Twin;

beforeAll(async () => {
  twin = await startTestTwin({ shops: [shopConfig(SHOP, 'bus_full_key_0001', {}, ['5001'])] });
});
afterAll(async () => {
  await twin?.stop();
});
afterEach(async () => {
  await setBus('ok');
});

const earned = (customer: string, points: number, extra: Record<string, unknown> = {}): EarningEvent & { id: string } => ({
  type: 'points.earned',
  shop_id: SHOP,
  customer_id: customer,
  occurred_at: '2026-11-27T10:00:00.000Z',
  points,
  email: `c${customer}@example.com`,
  first_name: 'C',
  points_balance: points,
  tier: null,
  id: randomUUID(),
  ...extra,
});

/** A change of its own (an item nobody else reads) with its events, as a write path commits them. */
const change = (label: string, condition?: string) =>
  namedWrite(`write ${label}`, {
    Put: {
      TableName: tableName(),
      Item: { pk: `TEST_CHANGE#${label}`, sk: 'TEST_CHANGE', label },
      ...(condition ? { ConditionExpression: condition } : {}),
    },
  });

async function listed(): Promise<CommittedEvent[]> {
  const response = await fetch(`${twin.url}/_events`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { events: CommittedEvent[] }).events;
}

async function setBus(mode: 'ok' | 'error'): Promise<void> {
  const response = await fetch(`${twin.platformUrl}/_faults`, { method: 'PUT', body: JSON.stringify({ bus: mode }) });
  expect(response.status).toBe(200);
  expect(((await response.json()) as { bus: string }).bus).toBe(mode);
}

it('lists a committed change’s events on GET /_events right after the commit, in the order of commit, with id and notify', async () => {
  const first = [earned('5001', 10), earned('5001', 20, { send_email: false })];
  const second = [earned('5001', 30)];
  expect(await commit([change(randomUUID())], { events: first })).toEqual({ committed: true });
  expect(await commit([change(randomUUID())], { events: second })).toEqual({ committed: true });

  const events = await listed();

  const ids = [...first, ...second].map((event) => event.id);
  expect(events.filter((event) => ids.includes(event.id)).map((event) => [event.id, event.notify])).toEqual([
    [ids[0], true],
    [ids[1], false],
    [ids[2], true],
  ]);
  expect(events.find((event) => event.id === ids[0])).toMatchObject({
    type: 'points.earned',
    shop_id: SHOP,
    points_balance: 10,
    tier: null,
  });
});

it('lists no event of a change whose transaction was refused', async () => {
  const refused = earned('5001', 40);
  const outcome = await commit([change(randomUUID(), 'attribute_exists(pk)')], { events: [refused] });
  const kept = earned('5001', 41);
  await commit([change(randomUUID())], { events: [kept] });

  expect(outcome.committed).toBe(false);
  const ids = (await listed()).map((event) => event.id);
  expect(ids).toContain(kept.id);
  expect(ids).not.toContain(refused.id);
});

it('hands every accepted event to each subscriber, in delivery order', async () => {
  const heard: string[] = [];
  const unsubscribe = twin.bus.subscribe((event) => {
    heard.push(event.id);
  });
  const events = [earned('5001', 1), earned('5001', 2), earned('5001', 3)];
  await commit([change(randomUUID())], { events: events.slice(0, 2) });
  await commit([change(randomUUID())], { events: events.slice(2) });

  await listed();
  const all = await eventually(
    () => heard,
    (ids) => ids.length >= 3,
  );
  unsubscribe();

  expect(all).toEqual(events.map((event) => event.id));
});

it('keeps events back while the bus refuses, answers GET /_events at once meanwhile, and loses none once it accepts', async () => {
  await setBus('error');
  const held = [earned('5001', 50), earned('5001', 51)];
  await commit([change(randomUUID())], { events: held.slice(0, 1) });
  await commit([change(randomUUID())], { events: held.slice(1) });

  const started = Date.now();
  const during = (await listed()).map((event) => event.id);
  const answeredInMs = Date.now() - started;
  // The reader keeps trying: it is refused at least once while the fault holds.
  const refusals = await eventually(
    () => twin.eventStream.stats().refusedBatches,
    (count) => count > 0,
  );
  await setBus('ok');
  const after = (
    await eventually(listed, (events) => held.every((event) => events.some((listedEvent) => listedEvent.id === event.id)))
  ).map((event) => event.id);

  expect(during).not.toContain(held[0]!.id);
  expect(during).not.toContain(held[1]!.id);
  expect(answeredInMs).toBeLessThan(2000);
  expect(refusals).toBeGreaterThan(0);
  expect(after.indexOf(held[0]!.id)).toBeLessThan(after.indexOf(held[1]!.id));
});

it('refuses a bus fault mode it does not know, naming the modes', async () => {
  const response = await fetch(`${twin.platformUrl}/_faults`, { method: 'PUT', body: JSON.stringify({ bus: 'throttled' }) });

  expect(response.status).toBe(400);
  expect(await response.text()).toContain('bus is one of ok, error');
});
