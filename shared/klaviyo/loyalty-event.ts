// A delivered loyalty event as the Klaviyo consumer reads it (EVENTS-CONTRACT.md, "An event"): the fields it
// needs, checked; every other field kept and passed on as the Klaviyo event's properties. And which types
// become which Klaviyo metric: stable names, which shops build their flows on (docs/events.md#klaviyo).
import * as z from 'zod/mini';

const text = () => z.string().check(z.minLength(1));

export const loyaltyEventSchema = z.looseObject({
  id: text(),
  type: text(),
  shop_id: text(),
  customer_id: text(),
  occurred_at: z.iso.datetime({ offset: true }),
  notify: z.optional(z.boolean()),
  email: z.optional(z.nullable(z.string())),
  first_name: z.optional(z.nullable(z.string())),
  points_balance: z.optional(z.nullable(z.number())),
  tier: z.optional(z.nullable(z.looseObject({ id: z.string(), name: z.string() }))),
});

export type LoyaltyEvent = z.infer<typeof loyaltyEventSchema>;

/** The Klaviyo metric of each event type worth an e-mail; a type not listed updates the profile only. */
export const KLAVIYO_METRICS: Readonly<Record<string, string>> = {
  'points.approved': 'Loyalty Points Earned',
  'points.earned': 'Loyalty Points Earned',
  'points.adjusted': 'Loyalty Points Adjusted',
  'reward.purchased': 'Loyalty Reward Redeemed',
  'reward.refunded': 'Loyalty Reward Refunded',
  'points.expiring_soon': 'Loyalty Points Expiring',
  'points.expired': 'Loyalty Points Expired',
  'tier.changed': 'Loyalty Tier Changed',
  'customer.enrolled': 'Loyalty Joined',
  'referral.completed': 'Loyalty Referral Completed',
};

/** The event types the stack's rule sends to the Klaviyo queue: the metrics' types and what moves a profile. */
export const KLAVIYO_EVENT_TYPES: readonly string[] = [
  ...Object.keys(KLAVIYO_METRICS),
  'points.pending',
  'points.removed',
  'reward.used',
  'reward.expired',
  'customer.merged',
  'import.undone',
];

/** What reaches the Klaviyo queue: EventBridge's envelope (the rule's target), of which only `detail` is read. */
export const queuedEventSchema = z.looseObject({ detail: z.unknown() });

/** The event of a queued message, or the reason it can never be read (then it is acknowledged, not retried). */
export function readQueuedEvent(body: string): LoyaltyEvent | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return 'the message is not JSON';
  }
  const envelope = queuedEventSchema.safeParse(parsed);
  if (!envelope.success) return 'the message is not an EventBridge event';
  const event = loyaltyEventSchema.safeParse(envelope.data.detail);
  if (!event.success)
    return `the event is not a loyalty event: ${event.error.issues.map((issue) => `${issue.path.join('.') || 'detail'} ${issue.message}`).join('; ')}`;
  return event.data;
}
