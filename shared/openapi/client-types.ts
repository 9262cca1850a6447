// The answers the clients read (the admin UI, the account, admin block, checkout and POS extensions), as types
// inferred from the server's own response schemas, the ones the OpenAPI document is built from. Types only:
// clients import this module with `import type`, so neither zod nor any server code reaches a bundle.
// test/unit/client-types.test.ts checks each type below against the document's components.
import type { z } from 'zod';
import type { RESPONSE_SCHEMAS, ResponseSchemaName } from './response-schemas';

/** A whole answer body, by its name under the document's components.schemas. */
export type AnswerBody<N extends ResponseSchemaName> = z.output<(typeof RESPONSE_SCHEMAS)[N]>;

/** The `data` of an answer body: its resource, or one resource of its list. */
type DataOf<N extends ResponseSchemaName> =
  AnswerBody<N> extends { data: infer D } ? (D extends readonly (infer R)[] ? R : NonNullable<D>) : never;

/** The attributes of an answer's resource (of each resource of a list). */
export type AnswerAttributes<N extends ResponseSchemaName> = DataOf<N> extends { attributes: infer A } ? A : never;

/** The `meta` of an answer body. */
export type AnswerMeta<N extends ResponseSchemaName> = AnswerBody<N> extends { meta: infer M } ? M : never;

/** `GET /v1/customers/{identifier}` (and the staff mirror's): the spec's customer object. */
export type Customer = AnswerAttributes<'Customer'>;
/** A member of `GET /admin/api/members`: the customer object and its last activity. */
export type ListedMember = AnswerAttributes<'MemberList'>;
export type MemberListMeta = AnswerMeta<'MemberList'>;
/** `POST /v1/customers/{identifier}/points`. */
export type PointsAdjustment = AnswerAttributes<'PointsAdjustment'>;
/** An earning history entry as the staff mirror answers it: with `actor`, `order_source_name` and an adjustment's `note`. */
export type StaffEarningHistoryEntry = AnswerAttributes<'StaffEarningHistoryList'>;
/** A reward history entry as the staff mirror answers it: with `actor`. */
export type StaffRewardHistoryEntry = AnswerAttributes<'StaffRewardHistoryList'>;
/** Who made a history entry (the staff mirror's `actor`). */
export type EntryActor = StaffEarningHistoryEntry['actor'] | StaffRewardHistoryEntry['actor'];
/** A VIP tier of `GET /v1/vip-tiers`. */
export type VipTier = AnswerAttributes<'VipTierList'>;
/** `POST /v1/rewards/{id}/purchase`. */
export type Purchase = AnswerAttributes<'Purchase'>;
/** `GET /admin/api/overview`: the program's figures. */
export type ProgramOverview = AnswerAttributes<'ProgramOverview'>;

/** `GET /shopper/program` (and `GET /admin/api/program`): the program as one shopper sees it. */
export type ShopperProgram = AnswerAttributes<'ShopperProgram'>;
/** `GET|POST /shopper/member`: the member (null for a guest or a customer who is not one) and who the token names. */
export type ShopperMember = AnswerAttributes<'ShopperMember'>;
/** A line of `GET /shopper/member/activity`. */
export type ActivityEntry = AnswerAttributes<'ShopperActivityList'>;
/** The page figures of `GET /shopper/member/activity` (`total`, `page`, `per_page`, `total_pages`). */
export type ActivityListMeta = AnswerMeta<'ShopperActivityList'>;
/** A code the member bought and can still use (`GET /shopper/member/rewards`). */
export type MemberReward = AnswerAttributes<'ShopperRewardList'>;
export type MemberRewardListMeta = AnswerMeta<'ShopperRewardList'>;
/** `POST /shopper/rewards/{id}/redeem`. */
export type Redemption = AnswerAttributes<'Redemption'>;
/** `POST /shopper/estimate`. */
export type Estimate = AnswerAttributes<'ShopperEstimate'>;
