// Customer use cases: resolve by id or e-mail, enrol from the platform, update, list.
import { giveBatches } from '../domain/points-ledger';
import {
  createCustomer,
  findCustomerByEmail,
  getCustomer,
  type StoredCustomer,
  updateCustomer as writeCustomerChanges,
} from '../data/customer-repository';
import { type CustomerListQuery, listCustomers as queryCustomers } from '../data/customer-list';
import { readShopCounters, type ShopCounters } from '../data/shop-repository';
import { type CustomerRecord, type MemberChanges, newMemberRecord } from '../domain/customer';
import { nowIso } from '../runtime/clock';
import { generateReferralCode } from '../domain/referral';
import { customerNotFound, DOMAIN_DETAILS, DomainError, echoed, failed, notFound, unavailable } from '../domain/errors';
import type { Platform, PlatformCustomer } from '../platform/port';
import { PlatformError, PlatformRefusedError, PlatformUnavailableError } from '../platform/port';
import { backoffDelay, CONTENTION_BACKOFF, retryUntil } from '../runtime/retry';
import { approvedEntry, type EarningEntry } from '../domain/history';
import { DEFAULT_EARNING_SETTINGS, type ShopCatalog } from '../domain/shop';
import { resolveTier } from '../domain/tiers';
import { type DomainEvent, memberFacts } from '../domain/events';
import { activeCampaign, earningRulePoints } from '../domain/earning-rule-points';

const NUMERIC_ID = /^\d{1,20}$/;
/** RFC 5321 caps an address at 254 characters; anything longer cannot be a customer (and would
 * exceed DynamoDB's key size if it reached the e-mail index). */
const MAX_EMAIL_LENGTH = 254;

/** Finds a member by platform id (numeric) or e-mail (contains '@'), or answers 404 naming the identifier. */
export async function resolveCustomer(shopId: string, identifier: string, consistent = false): Promise<StoredCustomer> {
  let found: StoredCustomer | null = null;
  if (NUMERIC_ID.test(identifier)) found = await getCustomer(shopId, identifier, consistent);
  else if (identifier.includes('@') && identifier.length <= MAX_EMAIL_LENGTH) found = await findCustomerByEmail(shopId, identifier);
  if (!found) throw customerNotFound(identifier);
  return found;
}

/**
 * The platform id of the member an identifier names, reading only what an id alone does not tell: nothing
 * for a platform id (the write that follows finds out whether the member exists), the e-mail index for an
 * e-mail address.
 */
export async function resolveCustomerId(shopId: string, identifier: string): Promise<string> {
  if (NUMERIC_ID.test(identifier)) return identifier;
  return (await resolveCustomer(shopId, identifier)).record.platform_customer_id;
}

export interface Enrolment {
  created: boolean;
  record: CustomerRecord;
}

/** The platform's customer: unavailable when the platform cannot answer, not found when it has no such customer. */
export async function fetchPlatformCustomer(platform: Platform, customerId: string): Promise<PlatformCustomer> {
  let customer: PlatformCustomer | null;
  try {
    customer = await platform.getCustomer(customerId);
  } catch (error) {
    // The store refused this app (access not granted, credentials refused): say what an operator must fix.
    if (error instanceof PlatformRefusedError) throw unavailable(error.callerDetail);
    // Enrolment cannot go on without the platform's record, whichever way the platform failed.
    if (error instanceof PlatformUnavailableError || error instanceof PlatformError) {
      throw unavailable(DOMAIN_DETAILS.platformUnreachable);
    }
    throw error;
  }
  if (!customer) throw notFound(`Platform customer '${echoed(customerId)}' not found`);
  return customer;
}

/** Enough rounds for an enrolment among many at once (each conflict waits a little longer) and a code drawn again. */
const ENROLMENT_ATTEMPTS = 60;

/**
 * Enrols a platform customer with zero points. An existing member is returned unchanged; of two
 * concurrent enrolments of one customer exactly one creates the record (conditional transaction).
 */
export async function enrollCustomer(shopId: string, customerId: string, platform: Platform, shop?: ShopCatalog): Promise<Enrolment> {
  const existing = await getCustomer(shopId, customerId);
  if (existing) return { created: false, record: existing.record };
  return enrollPlatformCustomer(shopId, await fetchPlatformCustomer(platform, customerId), shop);
}

/** How a member came to be enrolled, as `customer.enrolled` says (docs/events.md). */
export type EnrolmentSource = 'signup' | 'auto_enrolment' | 'import' | 'merge';

/**
 * Automatic enrolment of a platform customer found through one of their orders: a member since that order
 * was paid. False when they are a customer no more (deleted meanwhile) or were enrolled already.
 */
export async function autoEnrollCustomer(shop: ShopCatalog, customerId: string, platform: Platform, paidAt: string): Promise<boolean> {
  const shopId = shop.settings.id;
  if (await getCustomer(shopId, customerId, true)) return false;
  let customer: PlatformCustomer;
  try {
    customer = await fetchPlatformCustomer(platform, customerId);
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'not_found') return false;
    throw error;
  }
  return (await enrollPlatformCustomer(shopId, customer, shop, { memberSince: paidAt, source: 'auto_enrolment' })).created;
}

/**
 * Enrols a customer the platform described (the customer query, or a customers/create payload), with the
 * signup award in the same transaction, so that however many ways a customer is enrolled at once the award
 * is given once. `memberSince` backdates the enrolment for automatic enrolment (never later than now):
 * the customer counts as a member from the moment the store had them, so the order that made them
 * known earns too.
 */
export async function enrollPlatformCustomer(
  shopId: string,
  customer: PlatformCustomer,
  shop?: ShopCatalog,
  options: { memberSince?: string | null; source?: EnrolmentSource } = {},
): Promise<Enrolment> {
  const customerId = customer.id;
  const now = nowIso();
  const since = options.memberSince && options.memberSince < now ? new Date(options.memberSince).toISOString() : now;
  // A referral code already taken is drawn again; a transaction in conflict with another enrolment (they all move
  // the shop's member counters) is tried again after a short random wait, as other contended writes are.
  const enrolment = await retryUntil(ENROLMENT_ATTEMPTS, CONTENTION_BACKOFF, async (): Promise<Enrolment | undefined> => {
    const record = newMemberRecord(shopId, { ...customer, id: customerId }, { since, now }, generateReferralCode());
    const signup = shop ? signupAward(shop, record, now) : { record, entries: [] };
    const events = enrolmentEvents(signup.record, signup.entries, shop, options.source ?? 'signup', now);
    const outcome = await createCustomer(signup.record, { entries: signup.entries, events });
    if (outcome === 'created') return { created: true, record: signup.record };
    if (outcome === 'customer_exists') {
      const winner = await getCustomer(shopId, customerId, true);
      if (winner) return { created: false, record: winner.record };
    }
    return undefined;
  });
  if (enrolment) return enrolment;
  throw failed('Could not enroll the customer. Please try again.');
}

/**
 * The events an enrolment commits with the profile: `customer.enrolled` (with how), and for each signup entry,
 * approved at once, `points.earned` (EVENTS-CONTRACT.md: an approved entry created directly; one event per
 * entry, so one e-mail); each with the new member's facts.
 */
function enrolmentEvents(
  record: CustomerRecord,
  entries: readonly EarningEntry[],
  shop: ShopCatalog | undefined,
  source: EnrolmentSource,
  now: string,
): DomainEvent[] {
  const { shop_id: shopId, platform_customer_id: customerId } = record;
  const facts = memberFacts(record, shop?.tiers ?? []);
  return [
    {
      type: 'customer.enrolled',
      shop_id: shopId,
      customer_id: customerId,
      occurred_at: now,
      source,
      enrolled_at: record.created_at,
      ...facts,
    },
    ...entries.map((entry): DomainEvent => ({
      type: 'points.earned',
      shop_id: shopId,
      customer_id: customerId,
      occurred_at: now,
      earning_history_entry_id: entry.id,
      action: 'signup',
      points: entry.points,
      ...facts,
    })),
  ];
}

/**
 * Signup points of the shop's active signup rules, approved at once, priced as GET /v1/earning-rules shows
 * them to a new member (no tier yet, the running campaign); the ids are fixed per customer and rule.
 */
function signupAward(shop: ShopCatalog, record: CustomerRecord, now: string): { record: CustomerRecord; entries: EarningEntry[] } {
  const rules = shop.earningRules.filter((rule) => rule.is_active && rule.action === 'signup');
  const context = { tier: null, campaign: activeCampaign(shop.campaigns, new Date(now)), vipSettings: shop.settings.vip_settings };
  const entries: EarningEntry[] = rules.map((rule) => {
    const priced = earningRulePoints(rule, context);
    return approvedEntry(
      {
        id: `signup-${record.platform_customer_id}-${rule.id}`,
        earning_rule_id: rule.id,
        action: 'signup',
        points: priced.points,
        base_points: priced.base_points,
        points_multiplier: priced.campaign_boost ?? 1,
      },
      now,
    );
  });
  const points = entries.reduce((sum, entry) => sum + entry.points, 0);
  if (points === 0) return { record, entries };
  const figures = { ...record, current_points: points, lifetime_points: points };
  const after = { ...figures, vip_tier_id: resolveTier(figures, shop.tiers, shop.settings.vip_settings)?.id ?? null };
  return giveBatches(record, after, entries, shop.settings.earning_settings ?? DEFAULT_EARNING_SETTINGS, now);
}

// Enough rounds for dozens of simultaneous writers of one customer: a refusal returns the profile, so a
// round costs one write, and only a conflict with a transaction in progress waits.
const UPDATE_ATTEMPTS = 60;

/**
 * Applies changes, trying again from the profile a refusal returns when another write got in first (a
 * change of fields alone is refused only when the status or date of birth it was decided on changed).
 */
export async function updateCustomer(shopId: string, identifier: string, changes: MemberChanges): Promise<CustomerRecord> {
  let current = await resolveCustomer(shopId, identifier);
  let conflicts = 0;
  let wait = false;
  const updated = await retryUntil(
    UPDATE_ATTEMPTS,
    () => (wait ? backoffDelay((conflicts += 1), CONTENTION_BACKOFF) : 0),
    async (): Promise<CustomerRecord | undefined> => {
      const result = await writeCustomerChanges(current, changes, nowIso());
      if (result.written) return result.record;
      wait = result.conflict;
      if (!result.conflict) {
        if (!result.current) throw customerNotFound(identifier);
        current = result.current;
      }
      return undefined;
    },
  );
  if (updated) return updated;
  throw failed('The customer could not be updated. Please try again.');
}

export interface CustomerList {
  records: CustomerRecord[];
  total: number;
}

/**
 * An e-mail search counts its matches itself (a later page: the count its first page remembered). Otherwise the totals come from the
 * shop's counters: the first page is read alongside them, a deeper page only once they say it has
 * customers (so a page past the last, any page number up to 2^53, reads no index at all), and the
 * total tells the repository which end of the list is nearer.
 */
export async function listCustomers(
  shopId: string,
  query: CustomerListQuery,
  options: { boundaryMemory?: boolean; matchMemory?: boolean } = {},
): Promise<CustomerList> {
  if (query.emailContains !== undefined) {
    const page = await queryCustomers(shopId, query, { matchMemory: options.matchMemory });
    return { records: page.records, total: page.total ?? page.records.length };
  }
  const totalOf = (counters: ShopCounters) => (query.status ? counters[query.status] : counters.member + counters.excluded);
  if (query.offset === 0) {
    const [page, counters] = await Promise.all([queryCustomers(shopId, query, options), readShopCounters(shopId)]);
    return { records: page.records, total: totalOf(counters) };
  }
  const total = totalOf(await readShopCounters(shopId));
  if (query.offset >= total) return { records: [], total };
  return { records: (await queryCustomers(shopId, query, { ...options, total })).records, total };
}
