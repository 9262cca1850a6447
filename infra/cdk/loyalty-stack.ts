// The production stack: table, one function per manifest route plus the authorizer and the
// reconciler, the REST API with its usage plan, the event bus, and observability.
import { Arn, ArnFormat, CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { EventBus, Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { LoyaltyApi } from './constructs/loyalty-api';
import { LoyaltyFunction } from './constructs/loyalty-function';
import { LoyaltyTable } from './constructs/loyalty-table';
import { METRICS_NAMESPACE, Observability } from './constructs/observability';
import { AUTHORIZER_HANDLER, RECONCILER_HANDLER, type Route, ROUTES } from '../../shared/http/routes';

export interface LoyaltyStackProps extends StackProps {
  /** Secrets Manager name prefix of the per-shop Shopify credentials (`<prefix><shop>`). */
  shopifySecretPrefix?: string;
  /** E-mail address subscribed to the alarm topic. */
  alarmEmail?: string;
  logRetention?: RetentionDays;
  /**
   * Powertools Tracer in every function: a handler subsegment and one subsegment per DynamoDB,
   * EventBridge, Secrets Manager and Shopify call. Off by default: it loads the X-Ray SDK, which slows
   * every cold start (docs/performance.md). Lambda active tracing (function segments) is on either way.
   */
  detailedTracing?: boolean;
  /** The routes to deploy (default: the whole manifest). */
  routes?: readonly Route[];
}

export const DEFAULT_SECRET_PREFIX = 'loyalty/shopify/';

export class LoyaltyStack extends Stack {
  constructor(scope: Construct, id: string, props: LoyaltyStackProps = {}) {
    super(scope, id, props);
    const logRetention = props.logRetention ?? RetentionDays.ONE_MONTH;
    const secretPrefix = props.shopifySecretPrefix ?? DEFAULT_SECRET_PREFIX;

    const { table } = new LoyaltyTable(this, 'Data');
    const bus = new EventBus(this, 'Events', { description: 'Loyalty domain events (points.adjusted, tier.changed)' });

    // Every function's environment comes from here.
    const environment = {
      TABLE_NAME: table.tableName,
      EVENT_BUS_NAME: bus.eventBusName,
      SHOPIFY_SECRET_PREFIX: secretPrefix,
      POWERTOOLS_SERVICE_NAME: 'loyalty-api',
      POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
      POWERTOOLS_LOG_LEVEL: 'INFO',
      POWERTOOLS_TRACE_ENABLED: props.detailedTracing ? 'true' : 'false',
    };
    const secretsArn = Arn.format({ service: 'secretsmanager', resource: 'secret', resourceName: `${secretPrefix}*`, arnFormat: ArnFormat.COLON_RESOURCE_NAME }, this);
    const readShopifySecrets = new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [secretsArn] });

    const routes = props.routes ?? ROUTES;
    const handlers = new Map<string, IFunction>();
    for (const route of routes) {
      const fn = new LoyaltyFunction(this, `Fn${route.name[0]!.toUpperCase()}${route.name.slice(1)}`, {
        entry: route.handler,
        description: `${route.method} ${route.path}`,
        environment,
        logRetention,
      }).bindTable(table, route.scope === 'full' ? 'write' : 'read');
      if (route.uses?.includes('platform')) fn.fn.addToRolePolicy(readShopifySecrets);
      if (route.uses?.includes('events')) bus.grantPutEventsTo(fn.fn);
      handlers.set(route.name, fn.fn);
    }

    const authorizer = new LoyaltyFunction(this, 'FnAuthorizer', {
      entry: AUTHORIZER_HANDLER,
      description: 'API key authorizer',
      environment,
      logRetention,
    }).bindTable(table, 'read');

    const reconciler = new LoyaltyFunction(this, 'FnReconciler', {
      entry: RECONCILER_HANDLER,
      description: 'Settles purchases left pending by a crash',
      environment,
      logRetention,
      timeout: Duration.minutes(2),
    }).bindTable(table, 'write');
    reconciler.fn.addToRolePolicy(readShopifySecrets);
    new Rule(this, 'ReconcilerSchedule', {
      description: 'Run the purchase reconciler every 5 minutes',
      schedule: Schedule.rate(Duration.minutes(5)),
      targets: [new LambdaFunction(reconciler.fn, { retryAttempts: 0 })],
    });

    const api = new LoyaltyApi(this, 'Http', { routes, handlers, authorizer: authorizer.fn, logRetention });
    const observability = new Observability(this, 'Observability', {
      api: api.api,
      accessLogs: api.accessLogs,
      table,
      functions: handlers,
      reconciler: reconciler.fn,
      ...(props.alarmEmail ? { alarmEmail: props.alarmEmail } : {}),
    });

    new CfnOutput(this, 'ApiUrl', { value: api.api.url });
    new CfnOutput(this, 'TableName', { value: table.tableName });
    new CfnOutput(this, 'UsagePlanId', { value: api.usagePlan.usagePlanId });
    new CfnOutput(this, 'EventBusName', { value: bus.eventBusName });
    new CfnOutput(this, 'AlarmTopicArn', { value: observability.topic.topicArn });
    new CfnOutput(this, 'DashboardName', { value: observability.dashboard.dashboardName });
    new CfnOutput(this, 'ShopifySecretPrefix', { value: secretPrefix });
  }
}
