// Idempotency-Key on write endpoints, the chain's step around the endpoint's function: a retry with the
// same key and body gets the first response (status and body) and changes nothing; the same key with
// another body is refused with 422. While the first request may still be running, a retry answers 409;
// once its invocation is known to be stopped (its remaining time at the claim has passed), a retry takes
// the claim over and finishes the work. The records are kept by shared/data/idempotency-repository.ts.
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { once } from '../../data/claims';
import { type IdempotencyClaim, requestClaim, requestOnce } from '../../data/idempotency-repository';
import { ApiError, badRequest, toErrorResponse } from '../errors';
import { headerValue, JSON_HEADERS } from '../headers';
import { IDEMPOTENCY_HEADER, requestHash } from '../idempotency';

const VALID_KEY = /^[\x20-\x7E]{1,255}$/;

/**
 * Runs `produce` at most once per (shop, route, key). Caller errors (4XX) are stored and replayed
 * like successes; a 5XX or an unexpected error releases the key so the client can try again.
 * `inProgressMs` is how long this invocation may still run; `produce` gets the claim (to record its
 * progress, or to resume a stopped invocation's), or none without the header.
 */
export async function withIdempotency(
  shopId: string,
  event: APIGatewayProxyEvent,
  body: unknown,
  inProgressMs: number,
  produce: (claim?: IdempotencyClaim) => Promise<APIGatewayProxyResult>,
  /** The record's route: the method and resource by default; the shopper routes add the verified shopper. */
  route = `${event.httpMethod} ${event.resource}`,
): Promise<APIGatewayProxyResult> {
  const idempotencyKey = headerValue(event.headers, IDEMPOTENCY_HEADER);
  if (idempotencyKey === undefined) return produce();
  if (!VALID_KEY.test(idempotencyKey)) throw badRequest(`${IDEMPOTENCY_HEADER} must be 1 to 255 printable ASCII characters`);

  const scope = { shopId, route, idempotencyKey };
  const hash = requestHash(event, body);
  const outcome = await once(requestOnce(scope, hash), inProgressMs, async (claim) => {
    let response: APIGatewayProxyResult;
    try {
      response = await produce(requestClaim(scope, hash, claim));
    } catch (error) {
      // Edge and domain errors alike: what the caller would see decides whether it is stored.
      const { statusCode, body: envelope } = toErrorResponse(error);
      if (statusCode >= 500) throw error;
      response = { statusCode, headers: { ...JSON_HEADERS }, body: JSON.stringify(envelope) };
    }
    if (response.statusCode >= 500) return { release: true as const, result: response };
    return { finish: { status: response.statusCode, body: response.body }, result: response };
  });
  if (outcome.ran) return outcome.result;
  switch (outcome.refused) {
    case 'other_work':
      throw new ApiError(422, `${IDEMPOTENCY_HEADER} '${idempotencyKey}' was already used with a different request`);
    case 'in_progress':
      throw new ApiError(409, `A request with this ${IDEMPOTENCY_HEADER} is still being processed`);
    case 'finished':
      return {
        statusCode: outcome.answer.status,
        headers: { ...JSON_HEADERS, 'Idempotency-Replayed': 'true' },
        body: outcome.answer.body,
      };
  }
}
