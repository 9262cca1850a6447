// The stream consumer's delivery: the events a batch of stream records inserts are put on the bus, what the bus
// refuses is put again until it is accepted, and a batch whose attempts are spent reports its first undelivered
// record, so the stream hands it again (Lambda's partial batch response): every event id is delivered at least once.
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { marshall } from '@aws-sdk/util-dynamodb';
import { PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { committedEvent, domainEventItem } from '../../shared/data/items/domain-event';
import type { StreamRecordLike } from '../../shared/data/domain-event-stream';
import { deliverStreamRecords, type DeliveryPolicy } from '../../shared/delivery/deliver-events';
import type { CommittedEvent, DomainEvent } from '../../shared/domain/events';
import { eventBridgeBus, setEventBus, type EventBus } from '../../shared/outbound/event-bus';
import { fakeContext } from '../support/lambda-fakes';
import { useEnvironment } from '../support/environment';

useEnvironment({ TABLE_NAME: 'unit-table' });

const NO_WAIT: DeliveryPolicy = { attempts: 3, firstBackoffMs: 100, wait: async () => undefined };

const event = (n: number): DomainEvent => ({
  type: 'points.earned',
  shop_id: 'shop-a',
  customer_id: String(1000 + n),
  occurred_at: '2026-11-27T10:00:00.000Z',
  points: n,
  email: `m${n}@example.com`,
  first_name: 'M',
  points_balance: n,
  tier: null,
  id: `event-${n}`,
});

let sequence = 0;
/** The stream record of a domain event item's insertion, as Lambda hands it. */
function inserted(domainEvent: DomainEvent): StreamRecordLike {
  sequence += 1;
  const item = domainEventItem(committedEvent(domainEvent));
  return {
    eventName: 'INSERT',
    dynamodb: {
      SequenceNumber: String(sequence).padStart(21, '0'),
      Keys: marshall({ pk: item.pk, sk: item.sk }),
      NewImage: marshall(item, { removeUndefinedValues: true }),
    },
  };
}
function other(eventName: string, pk: string): StreamRecordLike {
  sequence += 1;
  return {
    eventName,
    dynamodb: { SequenceNumber: String(sequence).padStart(21, '0'), Keys: marshall({ pk, sk: 'x' }), NewImage: marshall({ pk, sk: 'x' }) },
  };
}

/** A bus that refuses the first `refusals` puts whole, then accepts; it remembers what it accepted. */
function refusingBus(refusals: number): EventBus & { accepted: CommittedEvent[]; puts: number } {
  const bus = {
    accepted: [] as CommittedEvent[],
    puts: 0,
    async put(events: readonly CommittedEvent[]) {
      bus.puts += 1;
      if (bus.puts <= refusals) return events.map((_, at) => at);
      bus.accepted.push(...events);
      return [];
    },
  };
  return bus;
}

describe('deliverStreamRecords', () => {
  it('puts each inserted event on the bus as committed (id, notify, member facts) and passes over every other record', async () => {
    const bus = refusingBus(0);
    const records = [inserted(event(1)), other('MODIFY', 'CUSTOMER#shop-a#1'), other('INSERT', 'KEY#abc'), inserted(event(2))];

    const outcome = await deliverStreamRecords(records, bus, NO_WAIT);

    expect(outcome).toEqual({ delivered: 2, firstUndelivered: null, refusals: 0 });
    expect(bus.accepted).toEqual([
      { ...event(1), notify: true },
      { ...event(2), notify: true },
    ]);
  });

  it('puts a refused batch again until the bus accepts it, within the attempts of one invocation', async () => {
    const bus = refusingBus(2);

    const outcome = await deliverStreamRecords([inserted(event(1)), inserted(event(2))], bus, NO_WAIT);

    expect(outcome).toEqual({ delivered: 2, firstUndelivered: null, refusals: 2 });
    expect(bus.accepted.map((e) => e.id)).toEqual(['event-1', 'event-2']);
  });

  it('waits with a doubling backoff between puts', async () => {
    const waits: number[] = [];
    await deliverStreamRecords([inserted(event(1))], refusingBus(3), {
      attempts: 4,
      firstBackoffMs: 100,
      wait: async (ms) => void waits.push(ms),
    });

    expect(waits).toEqual([100, 200, 400]);
  });

  it('puts again only the entries the bus refused, and reports the first one still refused', async () => {
    const records = [inserted(event(1)), inserted(event(2)), inserted(event(3))];
    const accepted: string[] = [];
    const bus: EventBus = {
      async put(events) {
        // The second event is refused every time; the others are taken at once.
        const refused = events.flatMap((e, at) => (e.id === 'event-2' ? [at] : []));
        accepted.push(...events.filter((e) => e.id !== 'event-2').map((e) => e.id));
        return refused;
      },
    };

    const outcome = await deliverStreamRecords(records, bus, NO_WAIT);

    expect(accepted).toEqual(['event-1', 'event-3']);
    expect(outcome).toEqual({ delivered: 2, firstUndelivered: records[1]!.dynamodb!.SequenceNumber, refusals: 3 });
  });

  it('treats a put that throws as a refusal of the whole batch', async () => {
    let calls = 0;
    const bus: EventBus = {
      async put() {
        calls += 1;
        if (calls === 1) throw new Error('connection reset');
        return [];
      },
    };

    expect(await deliverStreamRecords([inserted(event(1))], bus, NO_WAIT)).toEqual({ delivered: 1, firstUndelivered: null, refusals: 1 });
  });

  it('delivers every event at least once when the bus refuses for longer than one invocation’s attempts', async () => {
    const bus = refusingBus(7);
    const records = Array.from({ length: 5 }, (_, n) => inserted(event(n + 1)));
    // Lambda's event source mapping: a batch item failure hands the batch again from that record.
    let batch = records;
    let invocations = 0;
    for (;;) {
      invocations += 1;
      const { firstUndelivered } = await deliverStreamRecords(batch, bus, NO_WAIT);
      if (firstUndelivered === null) break;
      batch = batch.slice(batch.findIndex((record) => record.dynamodb?.SequenceNumber === firstUndelivered));
    }

    expect(invocations).toBe(3);
    expect(new Set(bus.accepted.map((e) => e.id))).toEqual(new Set(records.map((_, n) => `event-${n + 1}`)));
  });
});

describe('the delivery handler (functions/events/event-delivery.ts)', () => {
  afterEach(() => setEventBus(undefined));

  it('answers no batch item failure once the bus accepted after refusing twice', async () => {
    const bus = refusingBus(2);
    setEventBus(bus);
    const { handler } = await import('../../functions/events/event-delivery');
    const records = [inserted(event(1)), inserted(event(2))];

    const answer = await handler({ Records: records } as unknown as DynamoDBStreamEvent, fakeContext());

    expect(answer).toEqual({ batchItemFailures: [] });
    expect(bus.accepted.map((e) => e.id)).toEqual(['event-1', 'event-2']);
  });

  it('answers the first undelivered record as the batch item failure while the bus keeps refusing', async () => {
    setEventBus(refusingBus(100));
    const { handler } = await import('../../functions/events/event-delivery');
    const records = [other('INSERT', 'KEY#abc'), inserted(event(1)), inserted(event(2))];

    const answer = await handler({ Records: records } as unknown as DynamoDBStreamEvent, fakeContext());

    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: records[1]!.dynamodb!.SequenceNumber }] });
  });
});

describe('eventBridgeBus', () => {
  it('puts each event with Source loyalty-api, DetailType its type and Detail the event, ten to a call, and names the refused', async () => {
    const calls: PutEventsCommand[] = [];
    const client = {
      send: async (command: PutEventsCommand) => {
        calls.push(command);
        const entries = command.input.Entries ?? [];
        return {
          FailedEntryCount: entries.filter((entry) => JSON.parse(entry.Detail!).id === 'event-12').length,
          Entries: entries.map((entry) =>
            JSON.parse(entry.Detail!).id === 'event-12' ? { ErrorCode: 'InternalFailure', ErrorMessage: 'try again' } : { EventId: 'x' },
          ),
        };
      },
    };
    const events = Array.from({ length: 12 }, (_, n) => committedEvent(event(n + 1)) as CommittedEvent);

    const refused = await eventBridgeBus('loyalty-events', client as never).put(events);

    expect(refused).toEqual([11]);
    expect(calls.map((call) => call.input.Entries!.length)).toEqual([10, 2]);
    expect(calls[0]!.input.Entries![0]).toEqual({
      EventBusName: 'loyalty-events',
      Source: 'loyalty-api',
      DetailType: 'points.earned',
      Detail: JSON.stringify(events[0]),
    });
  });
});
