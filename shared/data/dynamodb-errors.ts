// What DynamoDB's refusals mean: the reasons of a cancelled transaction, a failed condition, a conflict with
// a transaction in progress, and the item returned with a refusal. Every repository reads errors through
// these, so none has to import another for them.
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Item } from './items/item-type';

const nameOf = (error: unknown) => (error as { name?: string } | null | undefined)?.name;

/** Reasons of a cancelled transaction, one per item, e.g. 'ConditionalCheckFailed' or 'None'; null for any other error. */
export function cancellationReasons(error: unknown): Array<string | undefined> | null {
  if (error instanceof TransactionCanceledException || nameOf(error) === 'TransactionCanceledException') {
    return ((error as TransactionCanceledException).CancellationReasons ?? []).map((reason) => reason.Code);
  }
  return null;
}

/** A single-item write refused by its condition. */
export const isConditionalCheckFailed = (error: unknown): boolean => nameOf(error) === 'ConditionalCheckFailedException';

/** Another transaction held the item: a single-item write refused, or a transaction cancelled for it. */
export const isTransactionConflict = (error: unknown): boolean =>
  nameOf(error) === 'TransactionConflictException' || (cancellationReasons(error)?.includes('TransactionConflict') ?? false);

/** The item a cancelled transaction returned for its write at `index` (ReturnValuesOnConditionCheckFailure), or null. */
export function cancelledItem(error: unknown, index: number): Item | null {
  const old = (error as TransactionCanceledException).CancellationReasons?.[index]?.Item;
  return old ? unmarshall(old) : null;
}
