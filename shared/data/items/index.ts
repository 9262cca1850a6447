// Every item type the table holds, in the order docs/architecture.md's table of items lists them. What is
// declared here is what the docs show and what `withoutKeys` leaves out when an item is read back.
import { actionCount } from './action-count';
import { apiKeyTypes } from './api-key';
import { birthdayTimerType } from './birthday-timer';
import { customerListBoundaryType } from './customer-list-boundary';
import { customerProfile } from './customer-profile';
import { domainEvent } from './domain-event';
import { earningEntryType } from './earning-entry';
import { emailGramTypes } from './email-gram';
import { erasureTombstone } from './erasure-tombstone';
import { emailMatchSetTypes } from './email-match-set';
import { friendReferralTypes } from './friend-referral';
import { idempotencyRecordType } from './idempotency-record';
import { importBatch, mergedImportBatch } from './import-batch';
import { importTypes } from './import-record';
import type { ItemType } from './item-type';
import { mergeTypes } from './merge';
import { nameTokenTypes } from './name-token';
import { orderCustomerType, orderType } from './order';
import { figuresItemTypes } from './program-figures';
import { redemptionCount } from './redemption-count';
import { referralTypes } from './referral';
import { rewardEntryType } from './reward-entry';
import { shopItemTypes } from './shop';
import { shopperBudget } from './shopper-budget';
import { staffAuditType } from './staff-audit';
import { webhookEventType } from './webhook-event';

export const ITEM_TYPES: readonly ItemType[] = [
  ...shopItemTypes,
  ...apiKeyTypes,
  customerProfile.type,
  earningEntryType,
  rewardEntryType,
  importBatch.type,
  mergedImportBatch.type,
  birthdayTimerType,
  redemptionCount.type,
  actionCount.type,
  orderType,
  orderCustomerType,
  staffAuditType,
  ...referralTypes,
  ...friendReferralTypes,
  idempotencyRecordType,
  domainEvent.type,
  webhookEventType,
  erasureTombstone.type,
  customerListBoundaryType,
  shopperBudget.type,
  ...emailGramTypes,
  ...emailMatchSetTypes,
  ...nameTokenTypes,
  ...mergeTypes,
  ...importTypes,
  ...figuresItemTypes,
];

/** The table's bookkeeping on any item: its key and every attribute an item type declares derived. */
export const KEY_ATTRIBUTES: ReadonlySet<string> = new Set(['pk', 'sk', ...ITEM_TYPES.flatMap((type) => type.derived ?? [])]);
