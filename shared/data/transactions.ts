// Transaction writes several repositories share: the write of a transaction that may be refused because
// something changed since it was read, the member profile's conditional put, the birthday timer's
// writes that follow a date of birth, and the e-mail search postings that follow an address. Not a repository: repositories import it, never each other.
import { randomUUID } from 'node:crypto';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { CustomerRecord } from '../domain/customer';
import { nowIso } from '../runtime/clock';
import { tableName, documentClient } from './client';
import { cancellationReasons, isTransactionConflict } from './dynamodb-errors';
import { birthdayTimerChange } from './items/birthday-timer';
import { customerItem, normalisedEmail, type StoredCustomer } from './items/customer-profile';
import { emailPostingChange } from './items/email-gram';

/** One write of a TransactWriteItems call. */
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * Commits `items` as one transaction; false when a condition no longer held or another transaction got in
 * first (the caller reads again and decides anew). One token per call: an SDK retry of a commit whose
 * answer was lost is a no-op instead of a refusal.
 */
export async function transactUnlessChanged(items: TransactItem[]): Promise<boolean> {
  if (items.length === 0) return true;
  try {
    await documentClient().send(new TransactWriteCommand({ ClientRequestToken: randomUUID(), TransactItems: items }));
    return true;
  } catch (error) {
    const reasons = cancellationReasons(error);
    if (reasons && reasons.some((code) => code === 'ConditionalCheckFailed' || code === 'TransactionConflict')) return false;
    if (isTransactionConflict(error)) return false;
    throw error;
  }
}

/**
 * The profile's next figures, written only if it is still at the version read and still a member. The
 * points writes that use it never change the address: the e-mail search postings stay as they are.
 */
export function memberProfilePut(current: StoredCustomer, next: CustomerRecord): TransactItem {
  if (normalisedEmail(next.email) !== normalisedEmail(current.record.email)) {
    throw new Error('A points write must not change the address: its e-mail search postings would not follow');
  }
  return {
    Put: {
      TableName: tableName(),
      Item: customerItem(next, current.version + 1),
      ConditionExpression: '#version = :version AND #status = :member',
      ExpressionAttributeNames: { '#version': 'version', '#status': 'status' },
      ExpressionAttributeValues: { ':version': current.version, ':member': 'member' },
    },
  };
}

/** The profile's next version, written only if it is still at the version read (whatever its status). */
export function profilePutAtVersion(current: StoredCustomer, next: CustomerRecord, options: { returnOld?: boolean } = {}): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: customerItem(next, current.version + 1),
      ConditionExpression: '#version = :version',
      ExpressionAttributeNames: { '#version': 'version' },
      ExpressionAttributeValues: { ':version': current.version },
      ...(options.returnOld ? { ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const } : {}),
    },
  };
}

/**
 * The birthday timer follows the date of birth: written when a date is set or changed, deleted when it is
 * cleared, so the birthday job finds the member on the right day without reading anyone else.
 */
export function birthdayTimerWrites(next: CustomerRecord, previousDate: string | null): TransactItem[] {
  const change = birthdayTimerChange(next, previousDate, nowIso().slice(0, 10));
  if (!change) return [];
  if ('delete' in change) return [{ Delete: { TableName: tableName(), Key: change.delete } }];
  return [{ Put: { TableName: tableName(), Item: change.put } }];
}

/**
 * The e-mail search postings follow the address (`items/email-gram.ts`): from `before` to `after` (null:
 * no profile), in the transaction that writes the profile, so the index never disagrees with it.
 */
export function emailPostingWrites(shopId: string, customerId: string, before: string | null, after: string | null): TransactItem[] {
  const change = emailPostingChange(shopId, customerId, before, after);
  return [
    ...change.delete.map((key) => ({ Delete: { TableName: tableName(), Key: key } })),
    ...change.put.map((item) => ({ Put: { TableName: tableName(), Item: item } })),
  ];
}
