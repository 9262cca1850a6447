// The error a promise rejects with; fails the test when it resolves instead.
export async function failureOf<E = Error>(promise: Promise<unknown>): Promise<E> {
  try {
    await promise;
  } catch (error) {
    return error as E;
  }
  throw new Error('expected a failure, got a result');
}
