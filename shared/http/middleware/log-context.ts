// Every log line of the request names its shop, route, key id and customer (never the key, never a full
// e-mail): keys appended to the logger before anything else runs, and cleared with its state per request.
import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { loggableIdentifier, logger } from '../../observability/powertools';
import { loggablePathParameter } from './path-parameters';

export const logContext = (): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => ({
  before: async (request) => {
    const context = request.event.requestContext?.authorizer ?? {};
    const identifier = request.event.pathParameters?.identifier;
    logger.appendKeys({
      route: `${request.event.httpMethod} ${request.event.resource}`,
      shop: typeof context.shopId === 'string' ? context.shopId : undefined,
      keyId: typeof context.keyId === 'string' ? context.keyId : undefined,
      // Which customer, for operators; an e-mail identifier is masked.
      customer: identifier ? loggableIdentifier(loggablePathParameter(identifier)) : undefined,
    });
  },
});
