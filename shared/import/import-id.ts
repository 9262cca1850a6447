// An import's id: a short digest of everything that decides what it writes (the file's bytes, the shop,
// `--from`, `--mode` and the customer export's bytes), so running the same import again finds its own
// records and changes nothing, and a different file or option is a different import.
import { deterministicId } from '../domain/deterministic-id';
import type { ImportMode, ImportSource } from './import-row';

/** Hex characters of an import id: 64 bits, no collision between a shop's imports in practice. */
export const IMPORT_ID_LENGTH = 16;

export interface ImportIdentity {
  shopId: string;
  from: ImportSource;
  mode: ImportMode;
  file: Buffer | string;
  /** The `--customers` export, when one is given. */
  customers: Buffer | string | null;
}

export function importIdOf(identity: ImportIdentity): string {
  // Each part length-prefixed, so no two different identities hash the same bytes.
  return deterministicId(
    {
      lengthPrefixed: [identity.shopId, identity.from, identity.mode, identity.file, identity.customers ?? ''],
      suffix: identity.customers === null ? 'no-customers' : 'customers',
    },
    { as: 'hex', length: IMPORT_ID_LENGTH },
  );
}

/** An import id as an operator types it: 16 lower-case hex characters. */
export const isImportId = (value: string) => new RegExp(`^[0-9a-f]{${IMPORT_ID_LENGTH}}$`).test(value);
