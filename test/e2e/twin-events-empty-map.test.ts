// An event that holds an empty map (a data request's answer quotes the stored profile and history as they are)
// reaches the twin's bus like any other: DynamoDB Local's stream gives such a value no type, and a reader that
// refused it would stop the shard there, so that no later event of the twin was ever listed.
import type { Twin } from '../../infra/local/twin';
import { commit } from '../../shared/data/commit';
import type { DomainEvent } from '../../shared/domain/events';
import { startTestTwin } from '../support/twin';

jest.setTimeout(120_000);

let twin: Twin;
beforeAll(async () => {
  twin = await startTestTwin({
    shops: [
      {
        id: 'empty-map',
        name: 'Empty map',
        currency: 'USD',
        referral_base_url: 'https://empty-map.example/',
        api_keys: [{ name: 'Full', scope: 'full', key: 'k_empty_map_1234567890abcdef' }],
        platform: { customers: [] },
      },
    ],
  });
});
afterAll(async () => {
  await twin?.stop();
});

const listedIds = async () =>
  ((await (await fetch(`${twin.url}/_events`)).json()) as { events: Array<{ id: string; customer?: unknown }> }).events;

it('lists an event with an empty map, nested or not, and the events committed after it', async () => {
  const event = (id: string, extra: Record<string, unknown>): DomainEvent => ({
    id,
    type: 'customer.data_requested',
    shop_id: 'empty-map',
    customer_id: '1',
    occurred_at: '2026-11-27T10:00:00.000Z',
    ...extra,
  });
  await commit([], { events: [event('with-empty-map', { customer: { metadata: {}, tags: [] }, extra: {} })] });
  await commit([], { events: [event('after-it', {})] });

  const events = await listedIds();

  expect(events.map((listed) => listed.id)).toEqual(expect.arrayContaining(['with-empty-map', 'after-it']));
  expect(events.find((listed) => listed.id === 'with-empty-map')).toMatchObject({ customer: { metadata: {}, tags: [] }, extra: {} });
});
