// Read-only keys may only GET: a write with one is refused (403) before anything is read or written. A
// request without the authorizer's context is refused (401).
import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { scopeAllows } from '../../domain/api-key';
import { DETAILS, forbidden } from '../errors';
import { requiredScope } from '../../runtime/entry-points';
import { callerFrom } from './caller';

export const scopeCheck = (): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => ({
  before: async (request) => {
    const caller = callerFrom(request.event);
    if (!scopeAllows(caller.scope, requiredScope(request.event.httpMethod))) throw forbidden(DETAILS.readOnlyKey);
  },
});
