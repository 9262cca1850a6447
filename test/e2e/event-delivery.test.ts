// The twin delivers committed domain events as the cloud does: recorded in their change's transaction
// (shared/data/commit.ts), carried by the table's stream to the bus (the twin's reader over DynamoDB Local,
// running the cloud's delivery handler), listed by GET /_events once the reader has caught up, handed to
// the bus's subscribers, and kept back, never lost, while the bus refuses (PUT /_faults "bus"); an event's
// occurred_at is the twin's movable clock (PUT /_clock).
import { randomUUID } from 'node:crypto';
import type { Twin } from '../../infra/local/twin';
import { commit, namedWrite } from '../../shared/data/commit';
import { tableName } from '../../shared/data/client';
import type { CommittedEvent, EarningEvent } from '../../shared/domain/events';
import { shopConfig } from '../fixtures/shop-config';
import { eventually } from '../support/twin-process';
import { apiClient, startTestTwin } from '../support/twin';

jest.setTimeout(120_000);

const SHOP = 'bus';
const KEY = 'bus_full_key_0001';
let twin: Twin;

beforeAll(async () => {
  twin = await startTestTwin({ shops: [shopConfig(SHOP, KEY, {}, ['5001'])] });
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

it('delivers every committed event id at least once while the bus goes from refusing to accepting and back', async () => {
  const events = Array.from({ length: 24 }, (_, n) => earned('5001', n));
  for (const [n, event] of events.entries()) {
    // Four commits at a time, the bus refusing every other group.
    if (n % 4 === 0) await setBus(n % 8 === 0 ? 'error' : 'ok');
    await commit([change(randomUUID())], { events: [event] });
  }
  await setBus('ok');

  const listedIds = new Set(
    (await eventually(listed, (all) => events.every((event) => all.some((listedEvent) => listedEvent.id === event.id)), 30_000)).map(
      (event) => event.id,
    ),
  );

  expect(events.filter((event) => !listedIds.has(event.id)).map((event) => event.id)).toEqual([]);
});

it("stamps an event's occurred_at with the twin's clock where PUT /_clock moved it, in UTC", async () => {
  const setClock = async (now: string | null) =>
    expect((await fetch(`${twin.url}/_clock`, { method: 'PUT', body: JSON.stringify({ now }) })).status).toBe(200);
  // Each adjustment of its own size: its event is the one points.adjusted of that size (no other test adjusts here).
  const adjusted = async (points: number) => {
    const answer = await apiClient(twin.url, KEY).post('/v1/customers/5001/points', { adjustment: points, note: 'Clock' });
    expect(answer.status).toBe(200);
    const ofThis = (all: CommittedEvent[]) =>
      all.filter((event) => event.type === 'points.adjusted' && event.customer_id === '5001' && event.adjustment === points);
    return ofThis(await eventually(listed, (all) => ofThis(all).length > 0));
  };

  try {
    await setClock('2031-01-01T00:00:00Z');
    const first = await adjusted(17);
    // Moved again (backwards, and with a time zone): the next event follows it.
    await setClock('2030-06-15T14:30:00+02:00');
    const second = await adjusted(23);

    expect(first.map((event) => event.occurred_at)).toEqual(['2031-01-01T00:00:00.000Z']);
    expect(second.map((event) => event.occurred_at)).toEqual(['2030-06-15T12:30:00.000Z']);
  } finally {
    await setClock(null);
  }
});

it('refuses a bus fault mode it does not know, naming the modes', async () => {
  const response = await fetch(`${twin.platformUrl}/_faults`, { method: 'PUT', body: JSON.stringify({ bus: 'throttled' }) });

  expect(response.status).toBe(400);
  expect(await response.text()).toContain('bus is one of ok, error');
});
