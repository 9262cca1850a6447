// A domain event waiting for delivery (`DOMAIN_EVENT#<shop>#<id>`): written in the very transaction of the
// change it describes (shared/data/commit.ts, `events`), so it exists if and only if the change committed.
// The table's stream carries its insertion to the event bus (at least once; consumers deduplicate by `id`);
// the item itself leaves through the table's TTL a week later. Its own partition per event: no shop's
// events ever contend with each other or with the shop's other items.
import { randomUUID } from 'node:crypto';
import { type CommittedEvent, type DomainEvent, notifyOf } from '../../domain/events';
import type { Write } from '../write';
import { TTL_ATTRIBUTE } from '../table';
import { defineItem } from './define-item';
import type { Item, ItemKey } from './item-type';

/** The prefix of every domain event's partition: what the stream's readers filter on. */
export const DOMAIN_EVENT_PREFIX = 'DOMAIN_EVENT#';
const SORT_KEY = 'DOMAIN_EVENT';

/** How long a delivered event's item stays before the TTL removes it (the stream has long carried it). */
const KEPT_MS = 7 * 86_400_000;

export const domainEventKey = (shopId: string, eventId: string): ItemKey => ({
  pk: `${DOMAIN_EVENT_PREFIX}${shopId}#${eventId}`,
  sk: SORT_KEY,
});

export const domainEvent = defineItem({
  name: 'domain event waiting for delivery (the stream carries it to the bus; TTL 7 days)',
  key: domainEventKey,
  placeholder: ['<shop>', '<event id>'],
  indexed: [TTL_ATTRIBUTE],
  derived: [TTL_ATTRIBUTE],
  derive: ({ event }: { event: CommittedEvent }) => ({ [TTL_ATTRIBUTE]: Math.floor((Date.parse(event.occurred_at) + KEPT_MS) / 1000) }),
});

/** The event as it will be delivered: its id (a new one unless it has one) and `notify` settled. */
export function committedEvent(event: DomainEvent): CommittedEvent {
  return { ...event, id: event.id ?? randomUUID(), notify: notifyOf(event) } as CommittedEvent;
}

/** The stored item of a committed event. */
export function domainEventItem(event: CommittedEvent): Item {
  return domainEvent.item(domainEventKey(event.shop_id, event.id), { event });
}

/** The event a stored (or streamed, unmarshalled) item holds; null for any other item. */
export function eventOfItem(item: Item): CommittedEvent | null {
  return typeof item.pk === 'string' && item.pk.startsWith(DOMAIN_EVENT_PREFIX) && item.sk === SORT_KEY
    ? (item.event as CommittedEvent)
    : null;
}

/** The write that records `event` with its change: it can only create, never overwrite another event. */
export function recordEvent(event: CommittedEvent): Write {
  return domainEvent.put(`record event ${event.type}`, domainEventKey(event.shop_id, event.id), { event }, { ifNew: true });
}

/** An event's item deleted before its TTL (it holds personal data an erasure removes). */
export function forgetEvent(shopId: string, eventId: string): Write {
  return domainEvent.delete('forget the event', domainEventKey(shopId, eventId));
}
