// Consumes the Klaviyo queue (the bus's loyalty events, by rule): each event's profile properties and metric
// sent to the shop's Klaviyo account (shared/klaviyo), with partial batch failures so that only the events
// Klaviyo did not take now go back to the queue (and to its dead-letter queue after that). What Klaviyo refuses
// is parked in the refusals queue and acknowledged: it never holds up the rest of the batch.
import { eventHandler } from '../../shared/observability/event-handler';
import { queueConsumer } from '../../shared/observability/queue-consumer';
import { processKlaviyoMessage } from '../../shared/klaviyo/klaviyo-consumer';

/** The consumer's work: one batch of the Klaviyo queue, answered as Lambda's partial batch response. */
export const deliverKlaviyoEvents = queueConsumer({
  failure: 'Klaviyo event not delivered',
  work: (record) => processKlaviyoMessage(record.body),
});

export const handler = eventHandler(deliverKlaviyoEvents);
