// The optional AWS WAF web ACL in front of the API stage (`-c waf=true`): rate-based rules, so a single
// address cannot spend the stage's shared throttle or the authorizer's budget on its own. Shopify's app proxy
// sends every shop's storefront traffic from Shopify's own addresses, so its requests are counted per shop
// instead (and, far higher, per address); every other request, session-token shopper requests from shoppers'
// browsers included, per source IP (docs/decisions.md, "Each shop its own shopper budget").
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { DETAILS, envelope } from '../../../shared/http/errors';
import { SHOPPER_BUDGET, SHOPPER_SHOPS_AT_FULL_RATE, THROTTLE_LIMITS } from '../../../shared/runtime/entry-points';

/** The window the rate-based rules count requests in. */
export const FIREWALL_WINDOW_SECONDS = 300;
/**
 * Requests one IP may send per window before it is blocked: what one key may send at the usage plan's
 * standard rate for the whole window. A caller running several keys behind one address needs more.
 */
export const DEFAULT_FIREWALL_RATE_LIMIT = THROTTLE_LIMITS.standard.rateLimit * FIREWALL_WINDOW_SECONDS;
/**
 * App proxy requests one shop (the `shop` query argument) may send per window: a busy shop spending its whole
 * shopper budget, reads and writes, for the whole window.
 */
export const APP_PROXY_SHOP_RATE_LIMIT = (SHOPPER_BUDGET.read.rateLimit + SHOPPER_BUDGET.write.rateLimit) * FIREWALL_WINDOW_SECONDS;
/**
 * App proxy requests one address may send per window: Shopify's proxy addresses carry many shops at once, so
 * SHOPPER_SHOPS_AT_FULL_RATE busy shops (the stage's shopper throttle). It bounds one address that makes up a
 * new `shop` for every request to escape the per-shop count.
 */
export const APP_PROXY_IP_RATE_LIMIT = APP_PROXY_SHOP_RATE_LIMIT * SHOPPER_SHOPS_AT_FULL_RATE;
const RATE_LIMITED_BODY = 'RateLimited';

/**
 * An app proxy request as WAF sees it: a shopper path (`/shopper/` anywhere in the URI path: on API Gateway's own
 * domain it is `/{stage}/shopper/...`) with a `signature` and a `shop` query argument. Whether the signature is
 * valid is the function's to check; without both arguments a request is counted per source IP.
 */
export const APP_PROXY_REQUEST: CfnWebACL.StatementProperty = {
  andStatement: {
    statements: [
      {
        byteMatchStatement: {
          fieldToMatch: { uriPath: {} },
          positionalConstraint: 'CONTAINS',
          searchString: '/shopper/',
          textTransformations: [{ priority: 0, type: 'NONE' }],
        },
      },
      ...['signature', 'shop'].map((name) => ({
        sizeConstraintStatement: {
          fieldToMatch: { singleQueryArgument: { Name: name } },
          comparisonOperator: 'GT',
          size: 0,
          textTransformations: [{ priority: 0, type: 'NONE' }],
        },
      })),
    ],
  },
};

export interface ApiFirewallProps {
  stage: Stage;
  /** Requests per source IP per FIREWALL_WINDOW_SECONDS (default DEFAULT_FIREWALL_RATE_LIMIT), app proxy requests aside. */
  rateLimit?: number;
}

export class ApiFirewall extends Construct {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: ApiFirewallProps) {
    super(scope, id);
    const rateLimit = props.rateLimit ?? DEFAULT_FIREWALL_RATE_LIMIT;
    // AWS WAF's bounds for a rate-based rule's limit.
    if (!Number.isInteger(rateLimit) || rateLimit < 10 || rateLimit > 2_000_000_000) {
      throw new Error(`wafRateLimit must be a whole number from 10 to 2000000000, got '${rateLimit}'`);
    }
    const metrics = (name: string) => ({ cloudWatchMetricsEnabled: true, sampledRequestsEnabled: true, metricName: name });
    const block = { block: { customResponse: { responseCode: 429, customResponseBodyKey: RATE_LIMITED_BODY } } };
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      description: 'Loyalty API: rate limits per source IP, and per shop for the app proxy',
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: metrics('LoyaltyApiFirewall'),
      // A blocked caller gets the spec's 429 envelope, as API Gateway's own throttling answers.
      customResponseBodies: {
        [RATE_LIMITED_BODY]: { contentType: 'APPLICATION_JSON', content: JSON.stringify(envelope(429, DETAILS.rateLimited)) },
      },
      rules: [
        {
          name: 'RateLimitPerIp',
          priority: 0,
          statement: {
            rateBasedStatement: {
              aggregateKeyType: 'IP',
              limit: rateLimit,
              evaluationWindowSec: FIREWALL_WINDOW_SECONDS,
              // Every request but the app proxy's, which come from Shopify's addresses for all shops at once.
              scopeDownStatement: { notStatement: { statement: APP_PROXY_REQUEST } },
            },
          },
          action: block,
          visibilityConfig: metrics('LoyaltyApiRateLimitPerIp'),
        },
        {
          name: 'AppProxyRateLimitPerShop',
          priority: 1,
          statement: {
            rateBasedStatement: {
              aggregateKeyType: 'CUSTOM_KEYS',
              customKeys: [{ queryArgument: { name: 'shop', textTransformations: [{ priority: 0, type: 'LOWERCASE' }] } }],
              limit: APP_PROXY_SHOP_RATE_LIMIT,
              evaluationWindowSec: FIREWALL_WINDOW_SECONDS,
              scopeDownStatement: APP_PROXY_REQUEST,
            },
          },
          action: block,
          visibilityConfig: metrics('LoyaltyApiAppProxyRateLimitPerShop'),
        },
        {
          name: 'AppProxyRateLimitPerIp',
          priority: 2,
          statement: {
            rateBasedStatement: {
              aggregateKeyType: 'IP',
              limit: APP_PROXY_IP_RATE_LIMIT,
              evaluationWindowSec: FIREWALL_WINDOW_SECONDS,
              scopeDownStatement: APP_PROXY_REQUEST,
            },
          },
          action: block,
          visibilityConfig: metrics('LoyaltyApiAppProxyRateLimitPerIp'),
        },
      ],
    });
    new CfnWebACLAssociation(this, 'StageAssociation', { resourceArn: props.stage.stageArn, webAclArn: this.webAcl.attrArn });
  }
}
