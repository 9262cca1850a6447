// Key builders: the only place pk/sk/index keys are composed. Every key starts with the shop, except
// API keys, which are looked up by hash before the shop is known.

import type { LoyaltyStatus } from '../domain/customer';

export interface ItemKey {
  pk: string;
  sk: string;
}

const shopPk = (shopId: string) => `SHOP#${shopId}`;
const customerPk = (shopId: string, customerId: string) => `SHOP#${shopId}#C#${customerId}`;

/** IAM pattern of the list-boundary partitions: the only items the read-only list function writes. */
export const LIST_BOUNDARY_PARTITIONS = 'SHOP#*#LISTPOS#*';

export const keys = {
  shopPk,
  shopSettings: (shopId: string): ItemKey => ({ pk: shopPk(shopId), sk: 'SETTINGS' }),
  shopCounters: (shopId: string): ItemKey => ({ pk: shopPk(shopId), sk: 'COUNTERS' }),
  earningRule: (shopId: string, id: string): ItemKey => ({ pk: shopPk(shopId), sk: `RULE#${id}` }),
  campaign: (shopId: string, id: string): ItemKey => ({ pk: shopPk(shopId), sk: `CAMPAIGN#${id}` }),
  vipTier: (shopId: string, id: string): ItemKey => ({ pk: shopPk(shopId), sk: `TIER#${id}` }),
  reward: (shopId: string, id: string): ItemKey => ({ pk: shopPk(shopId), sk: `REWARD#${id}` }),
  apiKey: (keyHash: string): ItemKey => ({ pk: `KEY#${keyHash}`, sk: 'KEY' }),
  /** The shop's listing entry of one of its keys (no secret in it). */
  shopApiKey: (shopId: string, keyId: string): ItemKey => ({ pk: shopPk(shopId), sk: `APIKEY#${keyId}` }),
  customerPk,
  customer: (shopId: string, customerId: string): ItemKey => ({ pk: customerPk(shopId, customerId), sk: 'PROFILE' }),
  earningEntry: (shopId: string, customerId: string, id: string): ItemKey => ({
    pk: customerPk(shopId, customerId),
    sk: `EARN#${id}`,
  }),
  rewardEntry: (shopId: string, customerId: string, id: string): ItemKey => ({
    pk: customerPk(shopId, customerId),
    sk: `REDEEM#${id}`,
  }),
  /** Guard item that makes a referral code unique within a shop. */
  referralCode: (shopId: string, code: string): ItemKey => ({ pk: `SHOP#${shopId}#REF#${code}`, sk: 'REF' }),
  /** How many times a customer has redeemed one reward (enforces max_redemptions). */
  redemptionCount: (shopId: string, customerId: string, rewardId: string): ItemKey => ({
    pk: customerPk(shopId, customerId),
    sk: `REDEEMCOUNT#${rewardId}`,
  }),
  /** A stored first response for an Idempotency-Key, per shop and route. */
  idempotencyRecord: (shopId: string, route: string, idempotencyKey: string): ItemKey => ({
    pk: `SHOP#${shopId}#IDEMPOTENCY#${route}#${idempotencyKey}`,
    sk: 'IDEMPOTENCY',
  }),
  /** Partition of the pending-purchases index the reconciler reads (sparse: only unsettled purchases). */
  pendingPurchases: () => 'PENDING_PURCHASES',
  /** Partition of the customer list indexes: one per shop and loyalty status. */
  customerList: (shopId: string, status: LoyaltyStatus) => `SHOP#${shopId}#LIST#${status}`,
  /** A remembered position in a customer list, `count` entries in (short-lived, TTL). */
  customerListBoundary: (shopId: string, list: string, pageSize: number, count: number): ItemKey => ({
    pk: `SHOP#${shopId}#LISTPOS#${list}#${pageSize}`,
    sk: `AT#${count}`,
  }),
  // NFC: an internationalised address typed with combining accents is the same address.
  customerEmail: (shopId: string, email: string) => `SHOP#${shopId}#EMAIL#${email.trim().normalize('NFC').toLowerCase()}`,
  /** A member's order: its merged state and the effects applied, in the customer's partition. */
  order: (shopId: string, customerId: string, orderId: string): ItemKey => ({ pk: customerPk(shopId, customerId), sk: `ORDER#${orderId}` }),
  /** Which member an order belongs to: refunds/create names only the order. */
  orderCustomer: (shopId: string, orderId: string): ItemKey => ({ pk: `SHOP#${shopId}#ORDER#${orderId}`, sk: 'ORDER' }),
  /** Maps a webhook's X-Shopify-Shop-Domain to the shop (written when the configuration is applied). */
  shopDomain: (domain: string): ItemKey => ({ pk: `SHOPDOMAIN#${domain.toLowerCase()}`, sk: 'SHOPDOMAIN' }),
  /** Every shop, one item each, so scheduled jobs can visit them all. */
  shopRegistry: (shopId: string): ItemKey => ({ pk: 'SHOPS', sk: `SHOP#${shopId}` }),
  /** Clock time up to which order reconciliation has read the platform's changed orders. */
  orderWatermark: (shopId: string): ItemKey => ({ pk: shopPk(shopId), sk: 'ORDER_WATERMARK' }),
  /** Partition of the due-work index: one per shop and kind of scheduled work. */
  dueWork: (shopId: string, kind: string) => `SHOP#${shopId}#DUE#${kind}`,
  /** The batch an imported balance forms where its imported entries do not cover it (no history entry). */
  importBatch: (shopId: string, customerId: string): ItemKey => ({ pk: customerPk(shopId, customerId), sk: 'BATCH#import' }),
  /** Another member's imported batch, moved into this member's partition by a customer merge. */
  mergedImportBatch: (shopId: string, customerId: string, fromId: string): ItemKey => ({
    pk: customerPk(shopId, customerId),
    sk: `BATCH#import-${fromId}`,
  }),
  /** In a merged-away customer's partition: which customer it was merged into, and the merge's progress. */
  mergedInto: (shopId: string, customerId: string): ItemKey => ({ pk: customerPk(shopId, customerId), sk: 'MERGED' }),
  /** In the kept member's partition while a merge still moves the deleted member's items into it. */
  incomingMerge: (shopId: string, customerId: string, fromId: string): ItemKey => ({
    pk: customerPk(shopId, customerId),
    sk: `MERGE#${fromId}`,
  }),
  /** A member's birthday timer: carries the next day the birthday job looks at the member. */
  birthdayTimer: (shopId: string, customerId: string): ItemKey => ({ pk: customerPk(shopId, customerId), sk: 'TIMER#birthday' }),
  /** The shop's webhook events (X-Shopify-Event-Id) being or having been processed: their effects happen once. */
  webhookEvents: (shopId: string) => `SHOP#${shopId}#EVENTS`,
  webhookEvent: (shopId: string, eventId: string): ItemKey => ({ pk: `SHOP#${shopId}#EVENTS`, sk: `EVENT#${eventId}` }),
  /** Makes a referral award once per referred customer. */
  referralAward: (shopId: string, referredId: string): ItemKey => ({ pk: `SHOP#${shopId}#REFERRAL#${referredId}`, sk: 'REFERRAL' }),
};

/** Prefixes of item kinds inside a shop partition, used when reading the shop's configuration. */
export const SHOP_ITEM_PREFIX = {
  rule: 'RULE#',
  campaign: 'CAMPAIGN#',
  tier: 'TIER#',
  reward: 'REWARD#',
} as const;
