// The error a promise rejects with; fails the test when it resolves instead.
import { toErrorResponse } from '../../shared/http/errors';
export async function failureOf<E = Error>(promise: Promise<unknown>): Promise<E> {
  try {
    await promise;
  } catch (error) {
    return error as E;
  }
  throw new Error('expected a failure, got a result');
}

/** What the caller would see of the failure: the status and the envelope's one error. */
export async function responseFailureOf(promise: Promise<unknown>): Promise<{ statusCode: number; title: string; detail: string }> {
  const { statusCode, body } = toErrorResponse(await failureOf(promise));
  return { statusCode, title: body.errors[0]!.title, detail: body.errors[0]!.detail };
}
