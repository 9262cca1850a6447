// GET /admin: the app's home in Shopify's admin for a verified staff member (text/html, framed only by the
// shop's admin), or App Bridge's bounce page that obtains an ID token (docs/admin.md).
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { adminAppScript, adminPageHtml, bouncePageHtml, frameAncestors, htmlResponse } from '../../shared/http/admin-page';
import { unauthorized } from '../../shared/http/errors';
import { errorEnvelope } from '../../shared/http/middleware/error-envelope';
import { logContext } from '../../shared/http/middleware/log-context';
import { observedChain } from '../../shared/observability/event-handler';
import { logger } from '../../shared/observability/powertools';
import { env } from '../../shared/runtime/env';
import { openAdminHome } from '../../shared/staff/admin-home';

/**
 * The page's own path as the browser asked for it, without its query: API Gateway's `requestContext.path` (with
 * the stage on API Gateway's own domain, `/prod/admin`; as mapped on a custom domain). Never the Host or
 * X-Forwarded-Proto headers, which a caller sets as it likes: the redirect is relative to this API's own address.
 */
export function pagePath(event: APIGatewayProxyEvent): string {
  const path = event.requestContext?.path ?? event.path;
  return path.startsWith('/') && !path.startsWith('//') ? path : event.path;
}

export const handler = observedChain<APIGatewayProxyEvent, APIGatewayProxyResult>()
  .use(logContext())
  .use(errorEnvelope())
  .handler(async (event) => {
    const query = { ...(event.queryStringParameters ?? {}) };
    const home = await openAdminHome({ query, pagePath: pagePath(event) });
    const extra = env()
      .ADMIN_FRAME_ANCESTORS.split(/\s+/)
      .filter((origin) => origin !== '');
    switch (home.kind) {
      case 'page':
        logger.appendKeys({ shopDomain: home.shopDomain, staff: home.userId });
        return htmlResponse(200, adminPageHtml(home.clientId, await adminAppScript()), frameAncestors(home.shopDomain, extra));
      case 'bounce':
        logger.info('Admin page bounced for an ID token', { reason: home.reason });
        return htmlResponse(200, bouncePageHtml(home.clientId), frameAncestors(home.shopDomain, extra));
      case 'redirect':
        return { statusCode: 302, headers: { Location: home.location, 'Cache-Control': 'private, no-store' }, body: '' };
      case 'refused':
        throw unauthorized(home.reason);
    }
  });
