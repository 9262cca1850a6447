// Alarms (to one SNS topic) and one dashboard: what an operator watches. Each alarm's meaning and
// the first thing to do about it are in docs/operate.md.
import { Duration } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import {
  Alarm,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  MathExpression,
  Metric,
  SingleValueWidget,
  TextWidget,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITableV2, Table } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { FilterPattern, type ILogGroup, MetricFilter } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Alias } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import type { BusinessMetric } from '../../../shared/observability/powertools';
import { ROUTE_DIMENSION, SERVER_ERRORS_METRIC, SERVICE } from '../../../shared/observability/service';
import { pascalCase } from './names';
import { ROUTES } from '../../../shared/runtime/entry-points';

export const METRICS_NAMESPACE = 'LoyaltyApi';
/** Age of the oldest queued webhook delivery at which the processor is behind: past a few redeliveries of one message. */
export const OLDEST_DELIVERY_ALARM_SECONDS = 15 * 60;
/** Committed domain events waiting at the event delivery longer than this are behind (its iterator age). */
export const EVENT_DELIVERY_BEHIND_MS = 60_000;
/** Business metrics the handlers emit through Powertools Metrics (names shared with shared/observability). */
export const BUSINESS_METRICS = [
  'PointsAdjusted',
  'RewardsPurchased',
  'DiscountCodeFailures',
  'PurchasesRefunded',
  'PurchasesReconciled',
  'RedemptionsRefunded',
  'RefundCodesRestored',
  'ReferralsCreated',
  'KlaviyoRefused',
] as const satisfies readonly BusinessMetric[];
/**
 * Shopify refused a call (ACCESS_DENIED, or 403) because the store has not granted a scope or protected
 * customer data: not transient, retrying changes nothing, so one occurrence alarms (docs/operate.md).
 */
export const ACCESS_DENIED_METRIC = 'PlatformAccessDenied' satisfies BusinessMetric;
/**
 * A redemption's refund deleted its code, could not commit, and could not issue the code again either: the
 * member's active reward has no usable code until the refund is retried (docs/operate.md). One alarms.
 */
export const CODE_RESTORE_FAILED_METRIC = 'RefundCodeRestoreFailed' satisfies BusinessMetric;
/**
 * A store credit was made for a purchase that was settled otherwise meanwhile (its points given back): the member
 * holds credit nobody paid for until an operator takes it back (docs/operate.md). One alarms. (`StoreCreditFailures`
 * has none: a refused credit gave the points back, an unconfirmed one is settled by the purchase reconciler.)
 */
export const STORE_CREDIT_UNACCOUNTED_METRIC = 'StoreCreditUnaccounted' satisfies BusinessMetric;

/**
 * The API routes: a route's handler answers its failures itself (the error envelope of shared/http), so
 * Lambda's Errors metric never sees them; their alarms add the requests the route answered 5XX, published
 * as SERVER_ERRORS_METRIC per route. Refusals (4XX) are counted by neither.
 */
const ROUTE_NAMES: ReadonlySet<string> = new Set(ROUTES.map((route) => route.name));

export interface ObservabilityProps {
  api: RestApi;
  accessLogs: ILogGroup;
  table: Table | ITableV2;
  /** API functions (routes, webhooks) and queue consumers, by manifest name. */
  functions: ReadonlyMap<string, IFunction>;
  /** Scheduled jobs, by manifest name. */
  jobs: ReadonlyMap<string, IFunction>;
  /** The webhook delivery queue: its oldest message's age says whether the processor keeps up. */
  queue: IQueue;
  /** Dead-letter queues by name: any message in one is work that did not happen. */
  deadLetterQueues: Readonly<Record<string, IQueue>>;
  alarmEmail?: string;
  /** The stream-fed authorizer-cache flusher: one failed flush means a revoked key may still pass until the TTL. */
  authorizerCacheFlusher?: IFunction;
  /** The stream-fed event delivery: its iterator age says how far behind the bus is the table's events. */
  eventDelivery?: IFunction;
}

export class Observability extends Construct {
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: ObservabilityProps) {
    super(scope, id);
    this.topic = new Topic(this, 'AlarmTopic', {
      displayName: 'Loyalty API alarms',
      enforceSSL: true,
      masterKey: Alias.fromAliasName(this, 'SnsKey', 'alias/aws/sns'),
    });
    if (props.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.alarmEmail));

    const apiName = props.api.restApiName;
    const apiMetric = (metricName: string, statistic: string) =>
      new Metric({
        namespace: 'AWS/ApiGateway',
        metricName,
        dimensionsMap: { ApiName: apiName, Stage: props.api.deploymentStage.stageName },
        statistic,
        period: Duration.minutes(5),
      });

    // 429s are not an API Gateway metric: count them from the access log.
    const throttled = new MetricFilter(this, 'ThrottledFilter', {
      logGroup: props.accessLogs,
      metricNamespace: METRICS_NAMESPACE,
      metricName: 'ThrottledRequests',
      filterPattern: FilterPattern.stringValue('$.status', '=', '429'),
      metricValue: '1',
    }).metric({ statistic: 'Sum', period: Duration.minutes(5) });

    const lambdaErrors = new MathExpression({
      expression: [...props.functions.values()].map((_, i) => `e${i}`).join(' + '),
      usingMetrics: Object.fromEntries(
        [...props.functions.values()].map((fn, i) => [`e${i}`, fn.metricErrors({ period: Duration.minutes(5) })]),
      ),
      label: 'Lambda errors (API functions and queue consumers)',
      period: Duration.minutes(5),
    });

    const dynamoSystemErrors = new Metric({
      namespace: 'AWS/DynamoDB',
      metricName: 'SystemErrors',
      dimensionsMap: { TableName: props.table.tableName },
      statistic: 'Sum',
      period: Duration.minutes(5),
    });

    // Published by the functions through Powertools Metrics, with its default dimension `service`.
    const business = (name: BusinessMetric) =>
      new Metric({
        namespace: METRICS_NAMESPACE,
        metricName: name,
        dimensionsMap: { service: 'loyalty-api' },
        statistic: 'Sum',
        period: Duration.minutes(5),
      });
    const accessDenied = business(ACCESS_DENIED_METRIC);
    const codeRestoreFailed = business(CODE_RESTORE_FAILED_METRIC);
    const storeCreditUnaccounted = business(STORE_CREDIT_UNACCOUNTED_METRIC);
    const serverErrors = (route: string) =>
      new Metric({
        namespace: METRICS_NAMESPACE,
        metricName: SERVER_ERRORS_METRIC,
        dimensionsMap: { service: SERVICE, [ROUTE_DIMENSION]: route },
        statistic: 'Sum',
        period: Duration.minutes(5),
      });

    const alarm = (id: string, metric: Metric | MathExpression, threshold: number, description: string) => {
      const created = metric.createAlarm(this, id, {
        threshold,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        alarmDescription: description,
      });
      created.addAlarmAction(new SnsAction(this.topic));
      this.alarms.push(created);
      return created;
    };

    alarm('Api5xxRate', apiMetric('5XXError', 'Average'), 0.01, 'More than 1% of API requests answered 5XX over 5 minutes');
    alarm('ApiLatencyP99', apiMetric('Latency', 'p99'), 2000, 'API p99 latency at or above 2 s over 5 minutes');
    alarm('ApiThrottling', throttled, 50, '50 or more requests throttled (429) in 5 minutes');
    // One alarm per function (an alarm's math may hold at most 10 metrics, and the name says where). A route's
    // alarm counts its failed invocations and the requests it answered 5XX, never a refusal (4XX).
    for (const [name, fn] of props.functions) {
      const errors = fn.metricErrors({ period: Duration.minutes(5) }) as Metric;
      if (ROUTE_NAMES.has(name)) {
        alarm(
          `LambdaErrors${pascalCase(name)}`,
          new MathExpression({
            expression: 'FILL(errors, 0) + FILL(serverErrors, 0)',
            usingMetrics: { errors, serverErrors: serverErrors(name) },
            label: `${name}: failed invocations and 5XX answers`,
            period: Duration.minutes(5),
          }),
          3,
          `3 or more failed invocations or 5XX answers of the ${name} function in 5 minutes (4XX are not counted)`,
        );
      } else {
        alarm(`LambdaErrors${pascalCase(name)}`, errors, 3, `3 or more errors of the ${name} function in 5 minutes`);
      }
    }
    alarm('DynamoDbSystemErrors', dynamoSystemErrors, 1, 'DynamoDB system errors on the loyalty table');
    alarm(
      'PlatformAccessDenied',
      accessDenied,
      1,
      'Shopify refused access (ACCESS_DENIED or 403): the store has not granted a scope or protected customer data (docs/operate.md)',
    );
    alarm(
      'RefundCodeRestoreFailed',
      codeRestoreFailed,
      1,
      "A redemption's refund failed after deleting its code and could not issue it again: retry the refund (docs/operate.md)",
    );
    alarm(
      'StoreCreditUnaccounted',
      storeCreditUnaccounted,
      1,
      'A store credit was made for a purchase settled otherwise: take the credit back in the store admin (docs/operate.md)',
    );
    // A job throws when any part of its run failed (a shop not reconciled, a purchase not settled): one error is enough.
    for (const [name, fn] of props.jobs) {
      alarm(
        `JobFailures${pascalCase(name)}`,
        fn.metricErrors({ period: Duration.minutes(15) }) as Metric,
        1,
        `The scheduled job ${name} failed in the last 15 minutes`,
      );
    }
    if (props.authorizerCacheFlusher) {
      alarm(
        'AuthorizerCacheFlushFailures',
        props.authorizerCacheFlusher.metricErrors({ period: Duration.minutes(5) }) as Metric,
        1,
        'A flush of the authorizer cache after an API key change failed (retried; see docs/operate.md)',
      );
    }
    if (props.eventDelivery) {
      alarm(
        'EventDeliveryErrors',
        props.eventDelivery.metricErrors({ period: Duration.minutes(5) }) as Metric,
        1,
        'The event delivery failed an invocation (its batch is handed again; see docs/operate.md)',
      );
      // The age of the newest record the function has taken: events wait this long for the bus.
      alarm(
        'EventDeliveryBehind',
        new Metric({
          namespace: 'AWS/Lambda',
          metricName: 'IteratorAge',
          dimensionsMap: { FunctionName: props.eventDelivery.functionName },
          statistic: 'Maximum',
          period: Duration.minutes(5),
        }),
        EVENT_DELIVERY_BEHIND_MS,
        `Committed domain events waited ${EVENT_DELIVERY_BEHIND_MS / 1000} s or more for the event bus (retried; see docs/operate.md)`,
      );
    }
    const deadLetterDepths = Object.entries(props.deadLetterQueues).map(([name, queue]) => {
      const depth = queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' });
      alarm(
        `DeadLetters${pascalCase(name)}`,
        depth,
        1,
        `Messages in the ${name} dead-letter queue: work that did not happen (docs/operate.md)`,
      );
      return depth.with({ label: `${name} dead letters` });
    });
    const oldestDelivery = props.queue.metricApproximateAgeOfOldestMessage({ period: Duration.minutes(5), statistic: 'Maximum' });
    alarm(
      'WebhookDeliveriesBehind',
      oldestDelivery,
      OLDEST_DELIVERY_ALARM_SECONDS,
      `The oldest queued webhook delivery has waited ${OLDEST_DELIVERY_ALARM_SECONDS / 60} minutes or more`,
    );
    const queuedDeliveries = props.queue.metricApproximateNumberOfMessagesVisible({
      period: Duration.minutes(5),
      statistic: 'Maximum',
      label: 'Queued webhook deliveries',
    });

    this.dashboard = new Dashboard(this, 'Dashboard', { defaultInterval: Duration.hours(6) });
    this.dashboard.addWidgets(
      new TextWidget({
        markdown: '# Loyalty API\nRequests, errors and latency of the API; business events; alarms.',
        width: 24,
        height: 2,
      }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({ title: 'Requests', left: [apiMetric('Count', 'Sum')], width: 8 }),
      new GraphWidget({ title: '4XX / 5XX', left: [apiMetric('4XXError', 'Sum'), apiMetric('5XXError', 'Sum')], width: 8 }),
      new GraphWidget({ title: 'Latency p50 / p99 (ms)', left: [apiMetric('Latency', 'p50'), apiMetric('Latency', 'p99')], width: 8 }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({ title: 'Business events', left: BUSINESS_METRICS.map(business), width: 12 }),
      new GraphWidget({ title: 'Throttled (429) and Lambda errors', left: [throttled], right: [lambdaErrors], width: 12 }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: '5XX answers by route (ServerErrors; 4XX are not errors)',
        left: [
          new MathExpression({
            expression: `SEARCH('{${METRICS_NAMESPACE},${ROUTE_DIMENSION},service} MetricName="${SERVER_ERRORS_METRIC}"', 'Sum', 300)`,
            label: '5XX answers',
            period: Duration.minutes(5),
          }),
        ],
        width: 24,
      }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'Webhook deliveries: queued and oldest age (s)',
        left: [queuedDeliveries],
        right: [oldestDelivery.with({ label: 'Oldest webhook delivery (s)' })],
        width: 12,
      }),
      new GraphWidget({ title: 'Dead letters', left: deadLetterDepths, width: 12 }),
    );
    this.dashboard.addWidgets(
      new SingleValueWidget({ title: 'DynamoDB system errors', metrics: [dynamoSystemErrors], width: 8 }),
      new GraphWidget({
        title: 'Shopify access denied (scopes, protected customer data)',
        left: [accessDenied.with({ label: 'Calls Shopify refused for want of access' })],
        width: 8,
      }),
      new GraphWidget({
        title: 'Scheduled job errors',
        left: [...props.jobs].map(([name, fn]) => fn.metricErrors({ label: name })),
        width: 8,
      }),
    );
    // What each run of the clock-driven jobs did (shared/calendar/scheduled-job-handler.ts publishes one
    // figure per job and run); a search expression picks up every job without naming them here.
    const jobFigures = (metricName: 'JobItemsDue' | 'JobItemsChanged', label: string) =>
      new MathExpression({
        expression: `SEARCH('{${METRICS_NAMESPACE},Job,service} MetricName="${metricName}"', 'Sum', 3600)`,
        label,
        period: Duration.hours(1),
      });
    this.dashboard.addWidgets(
      new GraphWidget({ title: 'Scheduled jobs: due items read per hour', left: [jobFigures('JobItemsDue', 'due')], width: 12 }),
      new GraphWidget({ title: 'Scheduled jobs: items changed per hour', left: [jobFigures('JobItemsChanged', 'changed')], width: 12 }),
    );
  }
}
