// Every key builder in one object, for code that composes keys of several item types (tests, seeding, the
// bench). Each key is composed by its item module in items/ (one module per item type); every key starts
// with the shop, except API keys, which are looked up by hash before the shop is known.
import { actionCountKey } from './items/action-count';
import { apiKeyKey, apiKeyListingKey } from './items/api-key';
import { birthdayTimerKey } from './items/birthday-timer';
import { friendCodeKey, friendCountKey, friendEmailKey, friendReferralKey } from './items/friend-referral';
import { customerListBoundaryKey, LIST_BOUNDARY_PARTITIONS } from './items/customer-list-boundary';
import { customerEmailPartition, customerKey, customerListPartition, customerPk } from './items/customer-profile';
import { duePartition } from './items/due';
import { earningEntryKey } from './items/earning-entry';
import { emailGramKey, emailIndexMarkerKey, longEmailKey } from './items/email-gram';
import { EMAIL_MATCH_SET_PARTITIONS, emailMatchChunkKey, emailMatchHeadKey } from './items/email-match-set';
import { idempotencyRecordKey } from './items/idempotency-record';
import { importBatchKey, mergedImportBatchKey } from './items/import-batch';
import { incomingMergeKey, mergedIntoKey } from './items/merge';
import { orderCustomerKey, orderKey } from './items/order';
import { redemptionCountKey } from './items/redemption-count';
import { SHOPPER_BUDGET_PARTITIONS, shopperBudgetKey } from './items/shopper-budget';
import { referralAwardKey, referralCodeKey } from './items/referral';
import { rewardEntryKey, UNSETTLED_PURCHASES } from './items/reward-entry';
import {
  campaignKey,
  earningRuleKey,
  orderWatermarkKey,
  rewardKey,
  shopCountersKey,
  shopDomainKey,
  shopPk,
  shopRegistryKey,
  shopSettingsKey,
  vipTierKey,
} from './items/shop';
import { webhookEventKey, webhookEventsPartition } from './items/webhook-event';

export type { ItemKey } from './items/item-type';
export { EMAIL_MATCH_SET_PARTITIONS, LIST_BOUNDARY_PARTITIONS, SHOPPER_BUDGET_PARTITIONS };

/**
 * IAM patterns of the only partitions the read-only list function writes: its remembered page
 * boundaries and remembered e-mail searches (short-lived items, docs/performance.md).
 */
export const LIST_MEMORY_PARTITIONS: readonly string[] = [LIST_BOUNDARY_PARTITIONS, EMAIL_MATCH_SET_PARTITIONS];

export const keys = {
  shopPk,
  shopSettings: shopSettingsKey,
  shopCounters: shopCountersKey,
  earningRule: earningRuleKey,
  campaign: campaignKey,
  vipTier: vipTierKey,
  reward: rewardKey,
  apiKey: apiKeyKey,
  shopApiKey: apiKeyListingKey,
  customerPk,
  customer: customerKey,
  earningEntry: earningEntryKey,
  rewardEntry: rewardEntryKey,
  referralCode: referralCodeKey,
  redemptionCount: redemptionCountKey,
  actionCount: actionCountKey,
  friendReferral: friendReferralKey,
  friendEmail: friendEmailKey,
  friendCode: friendCodeKey,
  friendCount: friendCountKey,
  idempotencyRecord: idempotencyRecordKey,
  pendingPurchases: () => UNSETTLED_PURCHASES,
  customerList: customerListPartition,
  customerListBoundary: customerListBoundaryKey,
  customerEmail: customerEmailPartition,
  emailGram: emailGramKey,
  longEmail: longEmailKey,
  emailIndexMarker: emailIndexMarkerKey,
  emailMatchHead: emailMatchHeadKey,
  emailMatchChunk: emailMatchChunkKey,
  order: orderKey,
  orderCustomer: orderCustomerKey,
  shopDomain: shopDomainKey,
  shopRegistry: shopRegistryKey,
  orderWatermark: orderWatermarkKey,
  dueWork: duePartition,
  importBatch: importBatchKey,
  mergedImportBatch: mergedImportBatchKey,
  mergedInto: mergedIntoKey,
  incomingMerge: incomingMergeKey,
  birthdayTimer: birthdayTimerKey,
  webhookEvents: webhookEventsPartition,
  webhookEvent: webhookEventKey,
  referralAward: referralAwardKey,
  shopperBudget: shopperBudgetKey,
};
