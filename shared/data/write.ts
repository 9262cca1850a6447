// A named write: one request of a transaction, made by an item module and named for what it does
// ("deduct points"), opaque to the features, which hand it to `commit` (commit.ts) untouched.
import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';

/** One request of a TransactWriteItems call, as the SDK takes it. Only item modules and `commit` build or read one. */
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** One named write of a transaction. */
export interface Write {
  /** What the write does, in the domain's words ("deduct points"); a refusal names it. */
  readonly name: string;
  readonly request: TransactItem;
}

/** A named write; item modules make them, nothing else does. */
export const namedWrite = (name: string, request: TransactItem): Write => ({ name, request });
