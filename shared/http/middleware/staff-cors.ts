// The staff routes' CORS headers: every answer of a route's /admin/api twin, errors included, carries
// STAFF_CORS_HEADERS, since Shopify's admin UI extensions call it from an origin of their own (the preflight
// itself is the gateway's: shared/runtime/entry-points.ts, CROSS_ORIGIN_STAFF_PATHS). A /v1 answer carries none.
import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { isStaffResource, STAFF_CORS_HEADERS } from '../../runtime/entry-points';

/** First of the chain's own steps (its `after` and `onError` run last): the headers on whatever is answered. */
export const staffCors = (): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => {
  const stamp = (request: middy.Request<APIGatewayProxyEvent, APIGatewayProxyResult>) => {
    if (!isStaffResource(request.event.resource) || !request.response) return;
    request.response = { ...request.response, headers: { ...request.response.headers, ...STAFF_CORS_HEADERS } };
  };
  return { after: async (request) => stamp(request), onError: async (request) => stamp(request) };
};
