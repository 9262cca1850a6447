// The e-mail search index (docs/architecture.md#e-mail-search): one posting per (shop, trigram of the
// member's normalised e-mail, member), `SHOP#<shop>#EGRAM#<gram>` / `<customer id>`, carrying the
// normalised address so a search verifies a candidate without reading its profile. An address with more
// distinct trigrams than one transaction can hold beside the profile has one posting in the shop's
// long-address partition instead, which every indexed search reads whole. The postings follow the
// profile in the same transaction, so the index is exact; the shop's index marker says its members
// written before the index existed have theirs too (the backfill writes it).
import type { Write } from '../write';
import { normalisedEmail } from './customer-profile';
import { defineItem } from './define-item';
import { type Item, type ItemKey, type ItemType, shopPk } from './item-type';

/** Characters of one gram: a search of at least this many characters can use the index. */
export const GRAM_LENGTH = 3;

/**
 * The most postings one address gets. A change of address deletes the old postings and writes the new
 * ones beside the profile in one TransactWriteItems (100 writes at most): 2 x 40 leaves room for the
 * profile and the other items of an enrolment, an erasure or a merge.
 */
export const MAX_GRAMS = 40;

/**
 * The distinct grams of a normalised address, by code point (an astral character is one character, as
 * in `contains`), in order of first appearance. None when it is shorter than a gram.
 */
export function gramsOf(text: string): string[] {
  const chars = Array.from(text);
  const grams = new Set<string>();
  for (let start = 0; start + GRAM_LENGTH <= chars.length; start += 1) grams.add(chars.slice(start, start + GRAM_LENGTH).join(''));
  return [...grams];
}

/** Partition of one gram's postings in a shop. */
export const emailGramPartition = (shopId: string, gram: string) => `${shopPk(shopId)}#EGRAM#${gram}`;

/** Partition of the shop's members whose address has more than `MAX_GRAMS` grams. */
export const longEmailPartition = (shopId: string) => `${shopPk(shopId)}#ELONG`;

export const emailGramKey = (shopId: string, gram: string, customerId: string): ItemKey => ({
  pk: emailGramPartition(shopId, gram),
  sk: customerId,
});

export const longEmailKey = (shopId: string, customerId: string): ItemKey => ({ pk: longEmailPartition(shopId), sk: customerId });

/** Where a normalised address is posted: a key per gram, or the long-address partition; none for no gram. */
export function emailPostingKeys(shopId: string, customerId: string, emailLc: string): ItemKey[] {
  const grams = gramsOf(emailLc);
  if (grams.length > MAX_GRAMS) return [longEmailKey(shopId, customerId)];
  return grams.map((gram) => emailGramKey(shopId, gram, customerId));
}

/** The postings of a member's normalised address. */
export function emailPostingItems(shopId: string, customerId: string, emailLc: string): Item[] {
  return emailPostingKeys(shopId, customerId, emailLc).map((key) => ({ ...key, email_lc: emailLc }));
}

export interface EmailPostingChange {
  put: Item[];
  delete: ItemKey[];
}

/**
 * The writes that take a member's postings from address `before` to `after` (null: no profile). Nothing
 * when the normalised address is the same; otherwise every posting of the new address (each carries the
 * address) and a delete of each old posting the new address does not have.
 */
export function emailPostingChange(shopId: string, customerId: string, before: string | null, after: string | null): EmailPostingChange {
  const from = before === null ? null : normalisedEmail(before);
  const to = after === null ? null : normalisedEmail(after);
  if (from === to) return { put: [], delete: [] };
  const put = to === null ? [] : emailPostingItems(shopId, customerId, to);
  const kept = new Set(put.map((item) => `${item.pk as string}|${item.sk as string}`));
  const old = from === null ? [] : emailPostingKeys(shopId, customerId, from);
  return { put, delete: old.filter((key) => !kept.has(`${key.pk}|${key.sk}`)) };
}

/**
 * The e-mail search postings follow the address: the writes from `before` to `after` (null: no profile),
 * for the transaction that writes the profile, so the index never disagrees with it.
 */
export function followAddress(shopId: string, customerId: string, before: string | null, after: string | null): Write[] {
  const change = emailPostingChange(shopId, customerId, before, after);
  return [
    ...change.delete.map((key) => emailGramPosting.delete('remove an e-mail posting', key)),
    ...change.put.map((item) => postingPut(item)),
  ];
}

/** Every posting of a member's normalised address, put again (the backfill: idempotent). */
export function postAddress(shopId: string, customerId: string, emailLc: string): Write[] {
  return emailPostingItems(shopId, customerId, emailLc).map(postingPut);
}

/** The put of a posting item (a gram's or a long address's: both hold the address alone). */
const postingPut = ({ pk, sk, email_lc }: Item): Write =>
  emailGramPosting.put('post an e-mail gram', { pk: String(pk), sk: String(sk) }, { email_lc });

/** The shop's index marker: present once every member enrolled before the index existed has its postings. */
export const emailIndexMarkerKey = (shopId: string): ItemKey => ({ pk: shopPk(shopId), sk: 'EMAIL_INDEX' });

/** The shop's index marker written: `by` says what completed it (a new shop, the backfill). */
export function markEmailIndexed(shopId: string, now: string, by: 'new shop' | 'backfill'): Write {
  return emailIndexMarker.put('mark the e-mail index complete', emailIndexMarkerKey(shopId), { completed_at: now, by });
}

export const emailGramPosting = defineItem({
  name: 'e-mail search posting (one per distinct trigram of the address)',
  key: emailGramKey,
  placeholder: ['<shop>', '<gram>', '<customer id>'],
});
export const longEmailPosting = defineItem({
  name: 'e-mail search posting of a long address',
  key: longEmailKey,
  placeholder: ['<shop>', '<customer id>'],
});
export const emailIndexMarker = defineItem({
  name: 'e-mail search index marker (the backfill is done)',
  key: emailIndexMarkerKey,
  placeholder: ['<shop>'],
});

export const emailGramTypes: readonly ItemType[] = [emailGramPosting.type, longEmailPosting.type, emailIndexMarker.type];
