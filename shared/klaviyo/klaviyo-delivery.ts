// One delivered loyalty event to Klaviyo (EVENTS-CONTRACT.md, "Klaviyo"): for a member with an e-mail, the
// profile's loyalty properties (`POST /api/profile-import`, identified by e-mail and external id together),
// then, for the types worth an e-mail and unless the change came with `notify: false`, a Klaviyo event
// (`POST /api/events`, `unique_id` = the event's id, so a redelivery is recorded once). A shop without a
// Klaviyo key sends nothing. What Klaviyo refuses is put on the refusals queue with its error body and the
// message acknowledged; what it does not take now is thrown, and the queue tries it again.
//
// The profile ends on the member's latest state whatever the order, retries or concurrency of deliveries
// (docs/decisions.md#klaviyo-profiles-end-on-the-members-latest-state): Klaviyo has no conditional write, so
// after each profile import the member is read again (consistently) and, if the profile it gives differs from
// the one just sent, that one is sent; the last import Klaviyo applies is thus always followed by a read that
// gives the same profile.
import { isDeepStrictEqual } from 'node:util';
import { getCustomer } from '../data/customer-repository';
import type { CustomerRecord } from '../domain/customer';
import { referralUrl } from '../domain/referral';
import type { ShopCatalog } from '../domain/shop';
import { KlaviyoRefused, type KlaviyoClient, type KlaviyoError, type KlaviyoPath } from '../outbound/klaviyo-client';
import type { MessageQueue } from '../outbound/sqs-queue';
import { countMetric, logger } from '../observability/powertools';
import { nowIso } from '../runtime/clock';
import { memberView } from '../shopper/shopper-program';
import { KLAVIYO_METRICS, type LoyaltyEvent } from './loyalty-event';

/**
 * What the refusals queue holds: the request refused, Klaviyo's own error body (never the key), and the event
 * itself as `detail`, so that a refusal moved back to the Klaviyo queue (once its cause is fixed) is read
 * as the event again.
 */
export interface KlaviyoRefusal {
  event_id: string;
  type: string;
  shop_id: string;
  customer_id: string;
  request: KlaviyoPath;
  status: number;
  errors: KlaviyoError[];
  refused_at: string;
  detail: LoyaltyEvent;
}

export interface KlaviyoDeliveryDeps {
  client: KlaviyoClient;
  /** The shop's Klaviyo private key, or null (nothing is sent). */
  keyFor(shopId: string): Promise<string | null>;
  shop(shopId: string): Promise<ShopCatalog>;
  refusals: MessageQueue<KlaviyoRefusal>;
  /** The client's clock's instant past which a request is left for the queue's next try. */
  deadline(): number;
}

export type KlaviyoOutcome =
  { sent: 'profile' | 'profile and event' } | { skipped: 'no key' | 'no member' | 'no e-mail' } | { refused: KlaviyoPath; status: number };

/**
 * Profile imports one delivery sends at most: the first, then one more each time the member had moved on
 * by the time Klaviyo took it. Past that the delivery throws and the queue tries the event again later.
 */
export const MAX_PROFILE_SENDS = 5;

/** The member kept changing while its profile was sent: the queue tries the event again. */
export class KlaviyoProfileMoving extends Error {
  constructor(eventId: string) {
    super(`The member of event ${eventId} kept changing while its Klaviyo profile was sent ${MAX_PROFILE_SENDS} times`);
    this.name = 'KlaviyoProfileMoving';
  }
}

/** The profile properties of the contract, from the member's item and ledger (read now, after the change). */
export async function profileProperties(
  shop: ShopCatalog,
  record: CustomerRecord,
  options: { consistent?: boolean } = {},
): Promise<Record<string, unknown>> {
  const view = await memberView(shop, record, options);
  return {
    'Loyalty Points Balance': record.current_points,
    'Loyalty Lifetime Points': record.lifetime_points,
    'Loyalty Pending Points': view.pendingPoints,
    'Loyalty Tier': record.status === 'excluded' ? null : (view.tier?.name ?? null),
    'Loyalty Status': record.status,
    'Loyalty Referral URL': referralUrl(shop.settings.referral_base_url, record.referral_code),
    'Loyalty Points Expiring': view.pointsExpiring?.points ?? 0,
    'Loyalty Points Expiring At': view.pointsExpiring?.at ?? null,
  };
}

/** The profile as both requests name it: e-mail and the platform customer id, always together. */
function identity(email: string, event: LoyaltyEvent) {
  return { email, external_id: event.customer_id };
}

/** `POST /api/profile-import`'s JSON:API body. */
export function profileImportBody(email: string, event: LoyaltyEvent, firstName: string | null, properties: Record<string, unknown>) {
  return {
    data: {
      type: 'profile',
      attributes: { ...identity(email, event), ...(firstName ? { first_name: firstName } : {}), properties },
    },
  };
}

/** The event's own fields as the Klaviyo event's properties: everything but the member's identity. */
function eventProperties(event: LoyaltyEvent): Record<string, unknown> {
  const {
    id: _id,
    shop_id: _shop,
    customer_id: _customer,
    occurred_at: _at,
    notify: _notify,
    email: _email,
    send_email: _send,
    ...rest
  } = event;
  return { ...rest, event_id: event.id };
}

/** `POST /api/events`'s JSON:API body. */
export function eventBody(email: string, event: LoyaltyEvent, metric: string) {
  return {
    data: {
      type: 'event',
      attributes: {
        properties: eventProperties(event),
        time: event.occurred_at,
        unique_id: event.id,
        metric: { data: { type: 'metric', attributes: { name: metric } } },
        profile: { data: { type: 'profile', attributes: identity(email, event) } },
      },
    },
  };
}

/**
 * The member as it is now, read consistently (every write committed before the read is in it), with the
 * address its profile is named by; or why there is no profile to send.
 */
async function readMember(event: LoyaltyEvent): Promise<{ record: CustomerRecord; email: string } | 'no member' | 'no e-mail'> {
  const stored = await getCustomer(event.shop_id, event.customer_id, true);
  // An erased member, or an event about someone who is no member: no profile to follow.
  if (!stored) return 'no member';
  // The member's address as it is now: the profile is the member's, whatever address an event names (a
  // `referral.created` names the referred friend's; an address may have changed since the event).
  const email = stored.record.email || null;
  if (!email) return 'no e-mail';
  return { record: stored.record, email };
}

/**
 * Sends the member's profile until the member, read again after Klaviyo took an import, gives the profile
 * that import sent: whichever delivery's import Klaviyo applies last, a read made after it follows, so the
 * profile ends on the member's latest state (an older read sent late is sent over by the delivery that sent
 * it). Answers the address of the last profile sent.
 */
async function sendLatestProfile(
  event: LoyaltyEvent,
  key: string,
  shop: ShopCatalog,
  first: { record: CustomerRecord; email: string },
  deps: KlaviyoDeliveryDeps,
): Promise<string> {
  let member = first;
  let sent: unknown = null;
  for (let sends = 0; ; sends += 1) {
    const properties = await profileProperties(shop, member.record, { consistent: true });
    const body = profileImportBody(member.email, event, member.record.first_name, properties);
    if (sent !== null && isDeepStrictEqual(body, sent)) return member.email;
    if (sends === MAX_PROFILE_SENDS) throw new KlaviyoProfileMoving(event.id);
    await deps.client.post(key, '/api/profile-import', body, deps.deadline());
    sent = body;
    const again = await readMember(event);
    // Erased, or no address any more, since: nothing further to follow.
    if (typeof again === 'string') return member.email;
    member = again;
  }
}

export async function deliverToKlaviyo(event: LoyaltyEvent, deps: KlaviyoDeliveryDeps): Promise<KlaviyoOutcome> {
  const key = await deps.keyFor(event.shop_id);
  if (!key) return { skipped: 'no key' };
  const member = await readMember(event);
  if (typeof member === 'string') return { skipped: member };
  const shop = await deps.shop(event.shop_id);
  const metric = KLAVIYO_METRICS[event.type];
  const notify = event.notify ?? true;
  try {
    const email = await sendLatestProfile(event, key, shop, member, deps);
    if (!metric || !notify) return { sent: 'profile' };
    await deps.client.post(key, '/api/events', eventBody(email, event, metric), deps.deadline());
    return { sent: 'profile and event' };
  } catch (error) {
    if (!(error instanceof KlaviyoRefused)) throw error;
    await deps.refusals.send({
      event_id: event.id,
      type: event.type,
      shop_id: event.shop_id,
      customer_id: event.customer_id,
      request: error.path,
      status: error.status,
      errors: error.errors,
      refused_at: nowIso(),
      detail: event,
    });
    countMetric('KlaviyoRefused');
    // A refusal is not this service's failure: a WARN, with Klaviyo's words, never the key.
    logger.warn('Klaviyo refused an event', {
      eventId: event.id,
      type: event.type,
      shopId: event.shop_id,
      request: error.path,
      status: error.status,
      errors: error.errors,
    });
    return { refused: error.path, status: error.status };
  }
}
