// The one derivation of a deterministic id or code: the same input gives the same id in every invocation, so
// a retry, a racing writer or the next run names the very same item or code (a conditional put of it can
// never duplicate). A SHA-256 digest of the input, written in the format the id needs. What goes into the
// digest is spelled out by the caller with one of the input forms below, each a different byte layout.
import { createHash } from 'node:crypto';

/** The bytes hashed. Each form is one layout; changing a site's form changes its ids. */
export type IdInput =
  /** A text as it is, UTF-8 (a site's own prefix included: `loyalty-purchase:<id>`). */
  | { text: string }
  /** Texts joined by U+0000, which none of them holds. */
  | { joined: readonly (string | number)[] }
  /** The JSON array of the parts. */
  | { json: readonly unknown[] }
  /** Each part as `<byte length>:<bytes>`, so no two different lists hash alike; then `suffix` as it is. */
  | { lengthPrefixed: readonly (string | Uint8Array)[]; suffix?: string };

/** How the digest is written. */
export type IdFormat =
  /** The 8-4-4-4-12 layout of a UUID, hex from the digest's first 32 hex digits as they are. */
  | { as: 'uuid' }
  /** The same with version digit 5 and variant digit `a`, as a name-based UUID shows them. */
  | { as: 'uuid-5' }
  /** The first `length` hex digits. */
  | { as: 'hex'; length: number }
  /** The first `length` characters of base64url. */
  | { as: 'base64url'; length: number }
  /**
   * A code a person types: `length` characters of an alphabet without look-alikes (one per digest byte,
   * the byte modulo the alphabet's size), in groups of four after `prefix` and a dash: `LOYAL-ABCD-EFGH-JKMN`.
   */
  | { as: 'code'; prefix: string; length: number };

/** Letters and digits a person cannot mistake for one another (no I, L, O, 0, 1). */
export const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

function digestOf(input: IdInput): Buffer {
  const hash = createHash('sha256');
  if ('text' in input) hash.update(input.text);
  else if ('joined' in input) hash.update(input.joined.join('\u0000'));
  else if ('json' in input) hash.update(JSON.stringify(input.json));
  else {
    for (const part of input.lengthPrefixed) {
      const bytes = typeof part === 'string' ? Buffer.from(part, 'utf8') : part;
      hash.update(`${bytes.length}:`);
      hash.update(bytes);
    }
    if (input.suffix !== undefined) hash.update(input.suffix);
  }
  return hash.digest();
}

/** The id of `input` in `format`. */
export function deterministicId(input: IdInput, format: IdFormat): string {
  const digest = digestOf(input);
  switch (format.as) {
    case 'uuid':
    case 'uuid-5': {
      const hex = digest.toString('hex');
      const [version, variant] = format.as === 'uuid' ? [hex[12], hex[16]] : ['5', 'a'];
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${version}${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
    }
    case 'hex':
      return digest.toString('hex').slice(0, format.length);
    case 'base64url':
      return digest.toString('base64url').slice(0, format.length);
    case 'code': {
      if (format.length > digest.length) throw new RangeError(`A code has at most ${digest.length} characters`);
      let code = '';
      for (let i = 0; i < format.length; i += 1) code += CODE_ALPHABET[digest[i]! % CODE_ALPHABET.length];
      return [format.prefix, ...(code.match(/.{1,4}/g) ?? [])].join('-');
    }
  }
}

/** One of `count` shards (0 to count - 1) for `input`: the digest's first two bytes, big-endian, modulo `count`. */
export function deterministicShard(input: IdInput, count: number): number {
  return digestOf(input).readUInt16BE(0) % count;
}
