// The staff routes' identity step (SURFACES-CONTRACT.md, "Staff routes"): on a request for a route's
// /admin/api twin, the function the feature hands in verifies Shopify's admin ID token before the body or
// anything else of the request is read, and names the shop and the staff user; a /v1 request passes by (the
// key authorizer has run in front of it). A handler built without the step refuses every staff request.
import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { StaffActor } from '../../domain/history';
import { logger } from '../../observability/powertools';
import { isStaffResource } from '../../runtime/entry-points';
import { unauthorized } from '../errors';
import { setStaffCaller } from './caller';

/** The verified staff user of a request; throws the refusal (a 401 ApiError, with its headers) otherwise. */
export type IdentifyStaff = (event: APIGatewayProxyEvent) => Promise<{ shopId: string; actor: StaffActor }>;

export const staffIdentity = (identify?: IdentifyStaff): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => ({
  before: async (request) => {
    if (!isStaffResource(request.event.resource)) return;
    if (!identify) throw unauthorized('This route is not served to staff');
    const { shopId, actor } = await identify(request.event);
    setStaffCaller(request.event, shopId, actor);
    logger.appendKeys({ shop: shopId, staffUser: actor.id });
  },
});
