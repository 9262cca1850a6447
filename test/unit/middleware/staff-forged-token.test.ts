// The staff step's answer to a bearer value that is no JWT at all (SURFACES-CONTRACT.md: a forged ID token on
// /admin/api is a 401 with App Bridge's retry header), beside the credentials of another kind it refuses without
// that header: an API key, a customer session token. All refused before any read.
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { SignJWT } from 'jose';
import { ApiError } from '../../../shared/http/errors';
import { identifyStaff, RETRY_INVALID_SESSION_HEADER } from '../../../shared/staff/staff-requests';
import { fakeEvent } from '../../support/lambda-fakes';

const staffEvent = (authorization: string): APIGatewayProxyEvent =>
  fakeEvent({ resource: '/admin/api/v1/customers/{identifier}', headers: { Authorization: authorization }, requestContext: {} } as never);

async function refusal(authorization: string): Promise<ApiError> {
  const error = await identifyStaff(staffEvent(authorization)).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

describe('a bearer value on /admin/api that is not a JWT', () => {
  it.each(['Bearer abc', 'Bearer a.b', 'Bearer a.b.c.d', 'bearer %%%.x.y'])('%s: 401 with the retry header', async (authorization) => {
    const error = await refusal(authorization);

    expect(error.statusCode).toBe(401);
    expect(error.headers).toEqual({ [RETRY_INVALID_SESSION_HEADER]: '1' });
  });

  it('an API key as a bearer: 401 without the retry header', async () => {
    const error = await refusal('Bearer lk_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG');

    expect(error.statusCode).toBe(401);
    expect(error.headers ?? {}).not.toHaveProperty(RETRY_INVALID_SESSION_HEADER);
  });

  it('a JWT that is not an admin ID token (a customer session token): 401 without the retry header', async () => {
    const token = await new SignJWT({ dest: 'e2e.myshopify.com', sub: '1001' })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('secret'));

    const error = await refusal(`Bearer ${token}`);

    expect(error.statusCode).toBe(401);
    expect(error.headers ?? {}).not.toHaveProperty(RETRY_INVALID_SESSION_HEADER);
  });
});
