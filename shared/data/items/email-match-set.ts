// A remembered e-mail search (docs/performance.md#e-mail-search): the ordered customer ids one evaluation
// of `filter[email]` found, cut into chunks of `IDS_PER_CHUNK` ids (a chunk stays far below the 400 KB
// item limit whatever the set's size), and a head naming the evaluation and its exact total, so a later
// page of the same search reads the head and only the chunk or two its slice is in. Every item carries
// the evaluation's id: a chunk left from an earlier, larger evaluation is never taken for this one's.
// Short-lived, removed by the table's TTL; besides the list's page boundaries, the only items the
// read-only list function writes.
import { TTL_ATTRIBUTE } from '../table';
import { type ItemKey, type ItemType, shopPk } from './item-type';

/**
 * Ids per chunk item: customer ids have at most 20 digits, so a chunk holds at most about 21 KB (a page
 * reads it for about 3 read units) and a set of 100 000 ids is 100 items.
 */
export const IDS_PER_CHUNK = 1_000;

/** Partition of one remembered search: `search` names the shop's normalised query, status filter and sort. */
export const emailMatchSetPartition = (shopId: string, search: string) => `${shopPk(shopId)}#EMATCH#${search}`;

export const emailMatchChunkKey = (shopId: string, search: string, chunk: number | string): ItemKey => ({
  pk: emailMatchSetPartition(shopId, search),
  sk: `CHUNK#${chunk}`,
});

export const emailMatchHeadKey = (shopId: string, search: string): ItemKey => ({ pk: emailMatchSetPartition(shopId, search), sk: 'HEAD' });

/** IAM pattern of the remembered searches' partitions, which the read-only list function may write. */
export const EMAIL_MATCH_SET_PARTITIONS = 'SHOP#*#EMATCH#*';

export const emailMatchSetTypes: readonly ItemType[] = [
  {
    name: 'remembered e-mail search: its evaluation and total (TTL)',
    key: emailMatchHeadKey('<shop>', '<search>'),
    indexed: [TTL_ATTRIBUTE],
    derived: [TTL_ATTRIBUTE],
  },
  {
    name: 'remembered e-mail search: one chunk of its ordered ids (TTL)',
    key: emailMatchChunkKey('<shop>', '<search>', '<chunk>'),
    indexed: [TTL_ATTRIBUTE],
    derived: [TTL_ATTRIBUTE],
  },
];
