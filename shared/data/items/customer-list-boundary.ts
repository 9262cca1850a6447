// A remembered position in a customer list, `count` entries in (docs/performance.md#customer-list-depth):
// short-lived, removed by the table's TTL; with the remembered e-mail searches (email-match-set.ts), the
// only items the read-only list function writes.
import { TTL_ATTRIBUTE } from '../table';
import { type ItemKey, type ItemType } from './item-type';

export const customerListBoundaryKey = (shopId: string, list: string, pageSize: number | string, count: number | string): ItemKey => ({
  pk: `SHOP#${shopId}#LISTPOS#${list}#${pageSize}`,
  sk: `AT#${count}`,
});

/** IAM pattern of the list-boundary partitions: the only items the read-only list function writes. */
export const LIST_BOUNDARY_PARTITIONS = 'SHOP#*#LISTPOS#*';

export const customerListBoundaryType: ItemType = {
  name: 'customer list boundary (TTL)',
  key: customerListBoundaryKey('<shop>', '<list>', '<page size>', '<count>'),
  indexed: [TTL_ATTRIBUTE],
  derived: [TTL_ATTRIBUTE],
};
