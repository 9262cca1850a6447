// One named write sent alone, as the single-item request it is (PutItem, UpdateItem or DeleteItem), for
// the writes that need no transaction: the same item, condition and cost as a transaction's write of it,
// without the transaction's double write units. A refusal of its condition is an answer, not an error.
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './client';
import { isConditionalCheckFailed } from './dynamodb-errors';
import type { Write } from './write';

/** Sends `write` on its own: true when written, false when its condition refused it; other errors go on. */
export async function writeAlone(write: Write): Promise<boolean> {
  const { Put, Update, Delete } = write.request;
  const command = Put ? new PutCommand(Put) : Update ? new UpdateCommand(Update) : Delete ? new DeleteCommand(Delete) : null;
  if (!command) throw new Error(`'${write.name}' is a condition check: it belongs in a transaction`);
  try {
    await documentClient().send(command as PutCommand);
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}
