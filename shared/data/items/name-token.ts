// The name search index (docs/admin.md#search-by-name): one posting per (shop, word of the member's first or
// last name, member), `SHOP#<shop>#NAME#<first character>` / `<word>#<customer id>`, so the members whose name
// has a word starting with a prefix are one Query's `begins_with` on the sort key, read as far as a page goes.
// A word is a run of letters and digits, lower-cased, its accents dropped ("José-María" gives "jose" and
// "maria"). The postings follow the profile's names in the same transaction as the profile, so the index is
// exact; the shop's name index marker says its members written before the index existed have theirs too.
import type { Write } from '../write';
import { defineItem } from './define-item';
import { type Item, type ItemKey, type ItemType, shopPk } from './item-type';

/** The most words of a member's names that get a posting (first name's first), to bound a write's items. */
export const MAX_NAME_WORDS = 6;
/** The longest word kept, in characters (a longer one is cut: its prefixes still find it). */
export const MAX_WORD_LENGTH = 40;

/** The searchable form of a text: lower case, accents dropped, NFKC. */
const folded = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .normalize('NFKC')
    .toLowerCase();

/** The words of a text as the index and the search read them, in order, each once. */
export function wordsOf(text: string): string[] {
  const words = folded(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '')
    .map((word) => Array.from(word).slice(0, MAX_WORD_LENGTH).join(''));
  return [...new Set(words)];
}

/** A member's names as the index reads them. */
export interface MemberNames {
  first_name?: string | null;
  last_name?: string | null;
}

/** The words of a member's names that get a posting: the first name's, then the last name's, at most MAX_NAME_WORDS. */
export function nameWordsOf(names: MemberNames): string[] {
  return wordsOf(`${names.first_name ?? ''} ${names.last_name ?? ''}`).slice(0, MAX_NAME_WORDS);
}

/** Partition of the postings of the words starting with `first` (one character) in a shop. */
export const namePartition = (shopId: string, first: string) => `${shopPk(shopId)}#NAME#${first}`;

/** The partition a word's postings, or a prefix's, are in. */
export const namePartitionOf = (shopId: string, word: string) => namePartition(shopId, Array.from(word)[0] ?? '');

export const namePostingKey = (shopId: string, word: string, customerId: string): ItemKey => ({
  pk: namePartitionOf(shopId, word),
  sk: `${word}#${customerId}`,
});

/** The word and the customer of a posting's sort key (a word never holds `#`). */
export function postingOf(sk: string): { word: string; customerId: string } {
  const at = sk.indexOf('#');
  return { word: sk.slice(0, at), customerId: sk.slice(at + 1) };
}

/** The postings of a member's names (none without a name). */
export function namePostingItems(shopId: string, customerId: string, names: MemberNames): Item[] {
  return nameWordsOf(names).map((word) => ({ ...namePostingKey(shopId, word, customerId), customer_id: customerId }));
}

/**
 * The name postings follow the names: the writes from `before` to `after` (null: no profile), for the
 * transaction that writes the profile, so the index never disagrees with it. Nothing when the words are the
 * same; otherwise a put of each new word's posting and a delete of each old word's the new names lack.
 */
export function followNames(shopId: string, customerId: string, before: MemberNames | null, after: MemberNames | null): Write[] {
  const from = before === null ? [] : nameWordsOf(before);
  const to = after === null ? [] : nameWordsOf(after);
  const removed = from.filter((word) => !to.includes(word));
  const added = to.filter((word) => !from.includes(word));
  return [
    ...removed.map((word) => namePosting.delete('remove a name posting', namePostingKey(shopId, word, customerId))),
    ...added.map((word) => namePosting.put('post a name word', namePostingKey(shopId, word, customerId), { customer_id: customerId })),
  ];
}

/** Every posting of a member's names, put again (the backfill: idempotent). */
export function postNames(shopId: string, customerId: string, names: MemberNames): Write[] {
  return nameWordsOf(names).map((word) =>
    namePosting.put('post a name word', namePostingKey(shopId, word, customerId), { customer_id: customerId }),
  );
}

/** The shop's name index marker: present once every member enrolled before the index existed has its postings. */
export const nameIndexMarkerKey = (shopId: string): ItemKey => ({ pk: shopPk(shopId), sk: 'NAME_INDEX' });

/** The shop's name index marker written: `by` says what completed it (a new shop, the backfill). */
export function markNamesIndexed(shopId: string, now: string, by: 'new shop' | 'backfill'): Write {
  return nameIndexMarker.put('mark the name index complete', nameIndexMarkerKey(shopId), { completed_at: now, by });
}

export const namePosting = defineItem({
  name: 'name search posting (one per word of the first and last names)',
  key: (shopId: string, first: string, word: string, customerId: string): ItemKey => ({
    pk: namePartition(shopId, first),
    sk: `${word}#${customerId}`,
  }),
  placeholder: ['<shop>', '<first character>', '<word>', '<customer id>'],
});
export const nameIndexMarker = defineItem({
  name: 'name search index marker (the backfill is done)',
  key: nameIndexMarkerKey,
  placeholder: ['<shop>'],
});

/** The marker's item (a scaled shop's seeding puts it in bulk). */
export const nameIndexMarkerItem = (shopId: string, now: string, by: 'new shop' | 'backfill'): Item =>
  nameIndexMarker.item(nameIndexMarkerKey(shopId), { completed_at: now, by });

export const nameTokenTypes: readonly ItemType[] = [namePosting.type, nameIndexMarker.type];
