// The table's stream read as domain events: a stream record is an event to deliver when it is the insertion
// of a domain event item (items/domain-event.ts), recorded in the transaction of its change. Every other
// record (a customer, a key, an event item's removal by the TTL) is none. Both readers of events use this:
// the cloud's stream consumer (shared/delivery/) and the twin's reader over DynamoDB Local.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { CommittedEvent } from '../domain/events';
import { DOMAIN_EVENT_PREFIX, eventOfItem } from './items/domain-event';

/** What the stream's record says, as Lambda's event and the Streams API both carry it. */
export interface StreamRecordLike {
  readonly eventName?: string;
  readonly dynamodb?: {
    readonly SequenceNumber?: string;
    readonly Keys?: Record<string, unknown>;
    readonly NewImage?: Record<string, unknown>;
  };
}

/** The committed event a stream record inserts, or null for any other record. */
export function committedEventOfRecord(record: StreamRecordLike): CommittedEvent | null {
  if (record.eventName !== 'INSERT') return null;
  const image = record.dynamodb?.NewImage;
  const pk = (image?.pk as { S?: string } | undefined)?.S;
  if (!image || typeof pk !== 'string' || !pk.startsWith(DOMAIN_EVENT_PREFIX)) return null;
  return eventOfItem(unmarshall(image as Record<string, AttributeValue>));
}
