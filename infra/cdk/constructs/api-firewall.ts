// The optional AWS WAF web ACL in front of the API stage (`-c waf=true`): one rate-based rule per source
// IP, so a single address cannot spend the stage's shared throttle or the authorizer's budget on its own.
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { DETAILS, envelope } from '../../../shared/http/errors';
import { THROTTLE_LIMITS } from '../../../shared/runtime/entry-points';

/** The window the rate-based rule counts requests in, per source IP. */
export const FIREWALL_WINDOW_SECONDS = 300;
/**
 * Requests one IP may send per window before it is blocked: what one key may send at the usage plan's
 * standard rate for the whole window. A caller running several keys behind one address needs more.
 */
export const DEFAULT_FIREWALL_RATE_LIMIT = THROTTLE_LIMITS.standard.rateLimit * FIREWALL_WINDOW_SECONDS;
const RATE_LIMITED_BODY = 'RateLimited';

export interface ApiFirewallProps {
  stage: Stage;
  /** Requests per source IP per FIREWALL_WINDOW_SECONDS (default DEFAULT_FIREWALL_RATE_LIMIT). */
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
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      description: 'Loyalty API: rate limit per source IP',
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
          statement: { rateBasedStatement: { aggregateKeyType: 'IP', limit: rateLimit, evaluationWindowSec: FIREWALL_WINDOW_SECONDS } },
          action: { block: { customResponse: { responseCode: 429, customResponseBodyKey: RATE_LIMITED_BODY } } },
          visibilityConfig: metrics('LoyaltyApiRateLimitPerIp'),
        },
      ],
    });
    new CfnWebACLAssociation(this, 'StageAssociation', { resourceArn: props.stage.stageArn, webAclArn: this.webAcl.attrArn });
  }
}
