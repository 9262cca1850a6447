// A conditional write as a yes or no: written, refused by its condition, or failed for another reason
// (which goes on to the caller).
import { writtenUnlessRefused } from '../../shared/data/dynamodb-errors';

const named = (name: string) => Object.assign(new Error(name), { name });

describe('writtenUnlessRefused', () => {
  it('is true when written, false when the condition refused it, and throws any other failure', async () => {
    await expect(writtenUnlessRefused(Promise.resolve({}))).resolves.toBe(true);
    await expect(writtenUnlessRefused(Promise.reject(named('ConditionalCheckFailedException')))).resolves.toBe(false);
    await expect(writtenUnlessRefused(Promise.reject(named('ProvisionedThroughputExceededException')))).rejects.toThrow(
      'ProvisionedThroughputExceededException',
    );
  });
});
