// One named write sent alone, as the single-item request it is (PutItem, UpdateItem or DeleteItem), for
// the writes that need no transaction: the same item, condition and cost as a transaction's write of it,
// without the transaction's double write units. A refusal of its condition is an answer, not an error.
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './client';
import { actingStaff } from '../runtime/acting-staff';
import { commit } from './commit';
import { isConditionalCheckFailed } from './dynamodb-errors';
import type { Write } from './write';

/** Sends `write` on its own: true when written, false when its condition refused it; other errors go on. */
export async function writeAlone(write: Write): Promise<boolean> {
  const { Put, Update, Delete } = write.request;
  const command = Put ? new PutCommand(Put) : Update ? new UpdateCommand(Update) : Delete ? new DeleteCommand(Delete) : null;
  if (!command) throw new Error(`'${write.name}' is a condition check: it belongs in a transaction`);
  // A staff request's write records who made it, which takes a transaction with the audit item.
  if (actingStaff()) return staffWrite(write);
  try {
    await documentClient().send(command as PutCommand);
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}

/** Tries of a staff write whose transaction met another transaction on its item. */
const STAFF_WRITE_ATTEMPTS = 5;

async function staffWrite(write: Write): Promise<boolean> {
  for (let attempt = 1; attempt <= STAFF_WRITE_ATTEMPTS; attempt += 1) {
    const outcome = await commit([write]);
    if (outcome.committed) return true;
    if (outcome.refusal.kind === 'condition') return false;
  }
  throw new Error(`'${write.name}' kept meeting other transactions on its item`);
}
