// The referred friend's reward (POST /v1/referrals): a member's referral code and a friend's e-mail give the
// friend a single-use discount code from the shop's friend reward (referral_settings), for any buyer,
// usable once, with nothing charged to anyone.
//
// Order of the work, so that no failure leaves a code without a referral, or a referral without a code that
// a retry cannot finish:
//   1. the checks that need a read (the code's owner; the referrer; a member with the friend's e-mail);
//   2. one transaction: the mailbox guard (once per shop), the referrer's counter for the UTC day (within
//      the cap), the referral in `issuing` with its code chosen (derived from its id), the code's guard and,
//      under an Idempotency-Key, the progress on the key's claim;
//   3. the code is created on the platform;
//   4. the referral becomes `active`, and `referral.created` is published.
// Concurrent requests are refused in 2 by conditions, before anything exists on the platform. If 3 fails,
// the code is looked up and deleted when it may exist, and 2 is taken back (503, nothing left). A stop
// between 2 and 4 leaves an `issuing` referral, never listed: a retry with the same Idempotency-Key takes
// the claim over and finishes it (the code is found, or created, by its value).
import { randomUUID } from 'node:crypto';
import { findCustomerByEmail, getCustomer, type StoredCustomer } from '../data/customer-repository';
import { type IdempotencyClaim, recordProgressItem } from '../data/idempotency-repository';
import { findReferralCodeOwner } from '../data/order-repository';
import {
  activateFriendReferral,
  cancelFriendReferral,
  findFriendReferralByEmail,
  friendEmailHashKey,
  getFriendReferral,
  referralSortKey,
  writeFriendReferral,
} from '../data/referral-repository';
import { addDays } from '../domain/dates';
import { referralCreatedEventId } from '../data/items/friend-referral';
import { canonicalEmail, mailboxKey } from '../domain/email-identity';
import { DOMAIN_DETAILS, failed, unavailable, unprocessable } from '../domain/errors';
import type { FriendReferral } from '../domain/referral';
import type { ReferralSettings, Reward, ShopCatalog } from '../domain/shop';
import { type DomainEvent, type MemberFacts, memberFacts } from '../domain/events';
import { countMetric } from '../observability/powertools';
import { type Platform, PlatformError, PlatformRefusedError, PlatformUnavailableError } from '../platform/port';
import { nowIso } from '../runtime/clock';
import { CONTENTION_BACKOFF, retryUntil } from '../runtime/retry';
import type { CreateReferralInput } from './referral-requests';
import { deterministicId } from '../domain/deterministic-id';
import { codeKindOf } from '../purchases/discount-code';

export const FRIEND_CODE_FAILED = "Failed to create the friend's discount code. Nothing was recorded.";

/** What a referral records on its Idempotency-Key's claim: enough to find it again. */
interface ReferralProgress {
  referrer_id: string;
  referral_sk: string;
  day: string;
}

/** A stop between the writes and the platform, for tests: as a function cut off by its time limit. */
export interface ReferralHooks {
  afterWrite?: (referral: FriendReferral) => Promise<void>;
}

export interface ReferralOptions extends ReferralHooks {
  claim?: IdempotencyClaim;
}

/** The friend's code, derived from the referral's random id: unguessable, and the same for every retry. */
export function friendCodeFor(referralId: string): string {
  return deterministicId({ text: `loyalty-friend:${referralId}` }, { as: 'code', prefix: 'FRIEND', length: 12 });
}

const WRITE_ATTEMPTS = 30;

/** An `issuing` referral this old has no invocation left working on it (endpoints stop after 10 seconds). */
export const STALLED_AFTER_MS = 60_000;

const refused = (title: string, detail: string) => unprocessable(title, detail);

/** The shop's friend reward, or the 422 of a shop that gives friends nothing. */
function friendReward(shop: ShopCatalog): { settings: ReferralSettings; reward: Reward } {
  const settings = shop.settings.referral_settings ?? null;
  const reward = settings ? shop.rewards.find((candidate) => candidate.id === settings.friend_reward_id && !candidate.deleted) : undefined;
  if (!settings || !reward) {
    throw refused('Referrals Not Enabled', 'This shop has no reward for referred friends (referral_settings in its configuration)');
  }
  return { settings, reward };
}

export async function createReferral(
  shop: ShopCatalog,
  input: CreateReferralInput,
  platform: Platform,
  options: ReferralOptions = {},
): Promise<FriendReferral> {
  const shopId = shop.settings.id;
  const { settings, reward } = friendReward(shop);
  const { claim } = options;
  if (claim?.resumed) {
    const resumed = await resumeReferral(shop, claim.resumed as unknown as ReferralProgress, platform);
    if (resumed) return resumed;
  }

  // 1. The code's owner, then the referrer and any member with the friend's e-mail, at once.
  const { code, email, canonical, ownerId, emailKey, referrer } = await checkedReferral(shopId, input);

  // 2. The conditional writes.
  const referral = await retryUntil(
    WRITE_ATTEMPTS,
    CONTENTION_BACKOFF,
    async (): Promise<{ referral: FriendReferral; day: string; resume: boolean } | undefined> => {
      const now = nowIso();
      const id = randomUUID();
      const day = now.slice(0, 10);
      const candidate: FriendReferral = {
        id,
        shop_id: shopId,
        referral_code: code,
        referrer_platform_customer_id: ownerId,
        email,
        canonical_email: canonical,
        email_key: emailKey,
        discount_code: friendCodeFor(id),
        reward_id: reward.id,
        discount: {
          type: reward.discount_type,
          value: reward.discount_amount,
          minimum_spend: reward.minimum_spend,
          ...(reward.product_variant_id ? { product_variant_id: reward.product_variant_id } : {}),
        },
        status: 'issuing',
        platform_discount_id: null,
        expires_at: reward.expiry_days === null ? null : addDays(now, reward.expiry_days),
        created_at: now,
        completed_at: null,
        friend_platform_customer_id: null,
        order_id: null,
      };
      const progress: ReferralProgress = { referrer_id: ownerId, referral_sk: referralSortKey(candidate), day };
      const outcome = await writeFriendReferral({
        referral: candidate,
        day,
        maxPerDay: settings.max_friends_per_day,
        ...(claim ? { checkpoint: recordProgressItem(claim, { ...progress }) } : {}),
      });
      if (outcome === 'written' || outcome === 'already_written') return { referral: candidate, day, resume: false };
      if (outcome === 'superseded') throw failed('The referral was taken over by a retry of the same request.');
      if (outcome === 'already_referred') {
        const stalled = await stalledReferral(shopId, emailKey, ownerId, Date.parse(now));
        if (stalled) return { referral: stalled, day: stalled.created_at.slice(0, 10), resume: true };
        throw refused('Already Referred', `'${email}' has already been referred in this shop`);
      }
      if (outcome === 'cap_reached') {
        throw refused(
          'Referral Limit Reached',
          `The member of referral code '${input.referral_code}' has referred the maximum of ${settings.max_friends_per_day} friends today (UTC)`,
        );
      }
      return undefined;
    },
  );
  if (!referral) throw failed('The referral could not be recorded. Please try again.');

  if (!referral.resume) await options.afterWrite?.(referral.referral);
  return issueFriendCode(referral.referral, referral.day, platform, referral.resume, memberFacts(referrer.record, shop.tiers));
}

/**
 * An `issuing` referral of this referrer for this mailbox that no invocation can still be working on (it
 * began longer ago than any endpoint runs): a stop, or a platform failure whose code could not be made sure
 * of, left it. The same request without an Idempotency-Key finishes it rather than being refused.
 */
async function stalledReferral(shopId: string, emailKey: string, referrerId: string, now: number): Promise<FriendReferral | null> {
  const ref = await findFriendReferralByEmail(shopId, emailKey);
  if (!ref || ref.referrer_id !== referrerId) return null;
  const referral = await getFriendReferral(shopId, ref.referrer_id, ref.referral_sk);
  if (!referral || referral.status !== 'issuing' || now - Date.parse(referral.created_at) < STALLED_AFTER_MS) return null;
  countMetric('ReferralsResumed');
  return referral;
}

/** A referral a stopped invocation wrote under the same Idempotency-Key: finished, or null to start afresh. */
async function resumeReferral(shop: ShopCatalog, progress: ReferralProgress, platform: Platform): Promise<FriendReferral | null> {
  const referral = await getFriendReferral(shop.settings.id, progress.referrer_id, progress.referral_sk);
  if (!referral) return null;
  countMetric('ReferralsResumed');
  if (referral.status !== 'issuing') return referral;
  const referrer = await getCustomer(shop.settings.id, progress.referrer_id, true);
  return issueFriendCode(referral, progress.day, platform, true, referrer ? memberFacts(referrer.record, shop.tiers) : null);
}

/** 3 and 4: the code on the platform, then the referral `active`; a failure takes the referral back. */
async function issueFriendCode(
  referral: FriendReferral,
  day: string,
  platform: Platform,
  lookFirst: boolean,
  referrer: MemberFacts | null,
): Promise<FriendReferral> {
  let platformDiscountId: string;
  try {
    const existing = lookFirst ? await platform.findDiscountCode(referral.discount_code) : null;
    const created =
      existing ??
      (await platform.createDiscountCode({
        code: referral.discount_code,
        title: "Loyalty referral: a friend's first order",
        customerId: null,
        discountType: codeKindOf(referral.discount.type),
        amount: referral.discount.value,
        productVariantId: referral.discount.product_variant_id ?? null,
        minimumSpend: referral.discount.minimum_spend,
        startsAt: referral.created_at,
        endsAt: referral.expires_at,
      }));
    platformDiscountId = created.id;
  } catch (error) {
    countMetric('DiscountCodeFailures');
    const codeMayExist = lookFirst || !(error instanceof PlatformError) || error.earlierAttemptMayHaveApplied;
    // A code that may exist is deleted before the referral is taken back; if that cannot be made sure of,
    // the referral stays `issuing` for a retry with the same Idempotency-Key to finish.
    const gone = !codeMayExist || (await deleteIfPresent(platform, referral.discount_code));
    if (gone) await cancelFriendReferral(referral, day);
    if (error instanceof PlatformRefusedError) throw unavailable(error.callerDetail);
    throw error instanceof PlatformUnavailableError ? unavailable(DOMAIN_DETAILS.platformUnreachable) : failed(FRIEND_CODE_FAILED);
  }

  // The referral's event, committed with its activation: the referrer's member facts, the friend's address
  // as `friend_email` (docs/earning-engine.md).
  const created: DomainEvent = {
    type: 'referral.created',
    id: referralCreatedEventId(referral.id),
    shop_id: referral.shop_id,
    customer_id: referral.referrer_platform_customer_id,
    occurred_at: referral.created_at,
    referral_id: referral.id,
    referral_code: referral.referral_code,
    friend_email: referral.email,
    discount_code: referral.discount_code,
    reward_id: referral.reward_id,
    expires_at: referral.expires_at,
    ...referrer,
  };
  if (!(await activateFriendReferral(referral, platformDiscountId, [created]))) {
    // Activated by a retry that took this request's key over with the same code: that is this referral.
    const settled = await getFriendReferral(referral.shop_id, referral.referrer_platform_customer_id, referralSortKey(referral));
    if (settled && settled.status !== 'issuing') return settled;
    throw failed(FRIEND_CODE_FAILED);
  }
  countMetric('ReferralsCreated');
  return { ...referral, status: 'active', platform_discount_id: platformDiscountId };
}

/** Deletes the code if the platform has it; false when the platform could not be asked. */
async function deleteIfPresent(platform: Platform, code: string): Promise<boolean> {
  try {
    const found = await platform.findDiscountCode(code);
    if (found) await platform.deleteDiscountCode(found.id);
    return true;
  } catch {
    return false;
  }
}

/**
 * The referral's parties, checked: the code's owner, a member, and a friend's address that is neither the
 * referrer's own (under any form) nor a customer's who has paid an order. Refused otherwise.
 */
async function checkedReferral(shopId: string, input: CreateReferralInput) {
  const code = input.referral_code.toUpperCase();
  const email = input.email;
  const canonical = canonicalEmail(email);
  const ownerId = await findReferralCodeOwner(shopId, code);
  if (!ownerId) throw refused('Invalid Referral Code', `Unknown referral code '${input.referral_code}'`);
  const addresses = [...new Set([email.toLowerCase(), canonical])];
  const [hashKey, referrer, ...friends] = await Promise.all([
    friendEmailHashKey(shopId),
    getCustomer(shopId, ownerId),
    ...addresses.map((address) => findCustomerByEmail(shopId, address)),
  ]);
  const emailKey = mailboxKey(hashKey, email);
  if (!referrer) throw refused('Invalid Referral Code', `Unknown referral code '${input.referral_code}'`);
  if (referrer.record.status !== 'member') {
    throw refused('Invalid Referral Code', `The member of referral code '${input.referral_code}' is excluded from the loyalty program`);
  }
  const sameAsReferrer = friends.some((friend) => friend?.record.platform_customer_id === ownerId);
  if (canonicalEmail(referrer.record.email) === canonical || sameAsReferrer) {
    throw refused(
      'Self Referral',
      email.toLowerCase() === referrer.record.email.trim().toLowerCase()
        ? 'A member cannot refer their own e-mail'
        : `'${email}' is the referrer's own e-mail under another form`,
    );
  }
  const customer = friends.find((friend): friend is StoredCustomer => (friend?.record.orders_count ?? 0) > 0);
  if (customer) throw refused('Existing Customer', `'${email}' belongs to a customer who already has a paid order`);
  return { code, email, canonical, ownerId, emailKey, referrer };
}
