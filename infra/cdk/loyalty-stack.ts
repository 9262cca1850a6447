// The production stack: table, one function per manifest entry (routes, webhooks, queue consumers,
// scheduled jobs, the authorizer and its cache's flusher), each granted what its entry declares, the REST
// API with its usage plan, the webhook delivery queue, the event bus, the optional Shopify partner event
// source and WAF web ACL, retries and dead-letter paths for the background work, and observability.
import { Arn, ArnFormat, CfnOutput, Duration, NestedStack, Stack, type StackProps } from 'aws-cdk-lib';
import { EventBus, Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { STAGE_NAME } from './constructs/loyalty-api';
import { LIST_MEMORY_PARTITIONS, SHOPPER_BUDGET_PARTITIONS } from '../../shared/data/keys';
import { ApiFirewall } from './constructs/api-firewall';
import { FailedJobRuns, JOB_RUN_RETRIES } from './constructs/failed-job-runs';
import { DEFAULT_FULL_RATE_KEYS, LoyaltyApi, stageThrottle } from './constructs/loyalty-api';
import { AuthorizerCacheFlusher } from './constructs/authorizer-cache-flusher';
import { EventDelivery } from './constructs/event-delivery';
import { ADMIN_APP_SCRIPT_NAME } from '../../shared/http/admin-page';
import { LoyaltyFunction } from './constructs/loyalty-function';
import { LoyaltyTable } from './constructs/loyalty-table';
import { METRICS_NAMESPACE, Observability } from './constructs/observability';
import { WebhookDeliveryQueue } from './constructs/webhook-delivery-queue';
import { KLAVIYO_BATCH, KlaviyoDelivery } from './constructs/klaviyo-delivery';
import { FIGURES_BATCH, FiguresDelivery } from './constructs/figures-delivery';
import { KLAVIYO_CONSUMER_CONCURRENCY } from '../../shared/klaviyo/klaviyo-consumer';
import { ShopifyEventSource } from './constructs/shopify-event-source';
import { pascalCase } from './constructs/names';
import {
  AUTHORIZER,
  AUTHORIZER_CACHE_FLUSHER,
  EVENT_DELIVERY,
  type EntryPoint,
  QUEUE_CONSUMERS,
  type QueueConsumer,
  type Route,
  routeUses,
  ROUTES,
  SCHEDULED_JOBS,
  type ScheduledJob,
  SHOPPER_ROUTES,
  ADMIN_PAGES,
  type PageRoute,
  type ShopperRoute,
  staffRoutesOf,
  WEBHOOKS,
  type WebhookRoute,
} from '../../shared/runtime/entry-points';

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
  /**
   * Shopify partner event source (`aws.partner/shopify.com/<app id>/<source name>`): when set, its events
   * reach the webhook delivery queue too, for stores that deliver webhooks through EventBridge. Off by default.
   */
  shopifyEventSourceName?: string;
  /** Keys at the usage plan's standard rate at once before the stage throttles everyone (default 10). */
  fullRateKeys?: number;
  /** AWS WAF web ACL with a rate-based rule per source IP on the stage (off by default: it has a monthly cost). */
  waf?: boolean;
  /** Requests per source IP per 5 minutes before the web ACL blocks (default: one key at the standard rate). */
  wafRateLimit?: number;
  /** Authorizer result cache per Authorization value, in seconds (default 300; 0 turns it and its flusher off). */
  authorizerCacheTtlSeconds?: number;
  /** The routes to deploy (default: the whole manifest). */
  routes?: readonly Route[];
  webhooks?: readonly WebhookRoute[];
  shopperRoutes?: readonly ShopperRoute[];
  /** Pages for a browser (default ADMIN_PAGES: the app's home). */
  pages?: readonly PageRoute[];
  queueConsumers?: readonly QueueConsumer[];
  scheduledJobs?: readonly ScheduledJob[];
}

export const DEFAULT_SECRET_PREFIX = 'loyalty/shopify/';

/** Event delivery retries of each scheduled job's target; a run older than this is left to the next one. */
export const JOB_TARGET_RETRIES = { retryAttempts: 2, maxEventAge: Duration.minutes(5) };
/** Records per processor invocation and how long SQS may wait to fill a batch. */
export const DELIVERY_BATCH = { batchSize: 10, maxBatchingWindow: Duration.seconds(1) };

/** The manifest's Shopify webhook (shared/runtime/entry-points.ts): its URL is the `ShopifyWebhookUrl` output. */
const SHOPIFY_WEBHOOK = 'receiveShopifyWebhook';

const constructId = (prefix: string, name: string) => `${prefix}${pascalCase(name)}`;

export class LoyaltyStack extends Stack {
  /** Functions invoked synchronously (API methods and the authorizer): a caller sees their failures. */
  readonly synchronousFunctions: IFunction[] = [];
  /** Functions polled by an SQS event source: the queue's redrive policy is their dead-letter path. */
  readonly queueConsumerFunctions: IFunction[] = [];
  /** Functions invoked asynchronously by a schedule: Lambda retries, then the failed-runs queue. */
  readonly scheduledJobFunctions: IFunction[] = [];
  readonly firewall: ApiFirewall | undefined;

  constructor(scope: Construct, id: string, props: LoyaltyStackProps = {}) {
    super(scope, id, props);
    const logRetention = props.logRetention ?? RetentionDays.ONE_MONTH;
    const secretPrefix = props.shopifySecretPrefix ?? DEFAULT_SECRET_PREFIX;
    const routes = props.routes ?? ROUTES;
    const webhooks = props.webhooks ?? WEBHOOKS;
    const shopperRoutes = props.shopperRoutes ?? SHOPPER_ROUTES;
    const pages = props.pages ?? ADMIN_PAGES;
    const consumers = props.queueConsumers ?? QUEUE_CONSUMERS;
    const jobs = props.scheduledJobs ?? SCHEDULED_JOBS;

    const { table } = new LoyaltyTable(this, 'Data');
    const bus = new EventBus(this, 'Events', { description: 'Loyalty domain events, delivered from the table stream (docs/events.md)' });
    // The webhook delivery queue; its visibility timeout follows the slowest consumer's timeout. Its construct id
    // is the one it was first deployed under ('OrderEvents'): a new id would be new logical ids, and an update
    // would replace both queues and their policies, losing the deliveries in flight (docs/decisions.md).
    const queueOf = (entry: QueueConsumer) => entry.queue ?? 'webhookDeliveries';
    const timeoutOf = (queue: string) =>
      Duration.seconds(Math.max(1, ...consumers.filter((entry) => queueOf(entry) === queue).map((entry) => entry.timeoutSeconds)));
    const consumerTimeout = timeoutOf('webhookDeliveries');
    const deliveries = new WebhookDeliveryQueue(this, 'OrderEvents', { consumerTimeout });
    // Events that EventBridge could not hand to their target (schedules, the partner source) after its retries.
    const undeliveredEvents = new Queue(this, 'UndeliveredEvents', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    // The bus's loyalty events for Klaviyo: their own queue and consumer, so Klaviyo's outages never slow the API.
    const klaviyo = consumers.some((entry) => queueOf(entry) === 'klaviyo')
      ? new KlaviyoDelivery(this, 'Klaviyo', { bus, consumerTimeout: timeoutOf('klaviyo'), undeliveredEvents })
      : undefined;
    // Every loyalty event for the program's figures: a queue and consumer of their own (docs/admin.md#figures).
    const figures = consumers.some((entry) => queueOf(entry) === 'figures')
      ? new FiguresDelivery(this, 'Figures', { bus, consumerTimeout: timeoutOf('figures'), undeliveredEvents })
      : undefined;
    // Job runs that still failed after Lambda's retries (the jobs are invoked asynchronously).
    const failedJobRuns = jobs.length > 0 ? new FailedJobRuns(this, 'FailedJobRuns').queue : undefined;

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
    const secretsArn = Arn.format(
      { service: 'secretsmanager', resource: 'secret', resourceName: `${secretPrefix}*`, arnFormat: ArnFormat.COLON_RESOURCE_NAME },
      this,
    );
    const readShopifySecrets = new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [secretsArn] });
    // Sending only: the receiver never reads, deletes or inspects the queue.
    const sendDeliveries = new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [deliveries.queue.queueArn] });

    /** One function of the manifest, with its table access, exactly the outside services it uses and its grants. */
    const manifestFunction = (
      scope: Construct,
      entry: EntryPoint,
      description: string,
      timeoutSeconds?: number,
      onFailure?: Queue,
      afterBundling?: (inputDir: string, outputDir: string) => string[],
    ) => {
      const uses = entry.uses ?? [];
      if (uses.includes('klaviyo') && !klaviyo) throw new Error(`${entry.name}: uses Klaviyo, but no consumer reads the Klaviyo queue`);
      const fn = new LoyaltyFunction(scope, constructId('Fn', entry.name), {
        entry: entry.handler,
        description,
        environment: {
          ...environment,
          ...(uses.includes('deliveryQueue') ? { WEBHOOK_DELIVERY_QUEUE_URL: deliveries.queue.queueUrl } : {}),
          ...(uses.includes('klaviyo') && klaviyo ? { KLAVIYO_REFUSED_QUEUE_URL: klaviyo.refusedQueue.queueUrl } : {}),
        },
        logRetention,
        ...(timeoutSeconds ? { timeout: Duration.seconds(timeoutSeconds) } : {}),
        ...(onFailure ? { asyncRetries: { ...JOB_RUN_RETRIES, onFailure } } : {}),
        ...(afterBundling ? { afterBundling } : {}),
      }).bindTable(table, entry.table);
      // The Klaviyo key is a field of the shop's Shopify secret.
      if (uses.includes('platform') || uses.includes('klaviyo')) fn.fn.addToRolePolicy(readShopifySecrets);
      if (uses.includes('klaviyo') && klaviyo) {
        fn.fn.addToRolePolicy(new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [klaviyo.refusedQueue.queueArn] }));
      }
      if (uses.includes('events')) bus.grantPutEventsTo(fn.fn);
      if (uses.includes('deliveryQueue')) fn.fn.addToRolePolicy(sendDeliveries);
      // The customer list's page boundaries and remembered e-mail searches (short-lived items,
      // docs/performance.md#customer-list-depth, #e-mail-search): a reader's one write, and only to those partitions.
      if (entry.grants?.includes('listPageBoundaries')) {
        fn.fn.addToRolePolicy(
          new PolicyStatement({
            actions: ['dynamodb:BatchWriteItem'],
            resources: [table.tableArn],
            conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...LIST_MEMORY_PARTITIONS] } },
          }),
        );
      }
      // Each shop's shopper budget (docs/decisions.md, "Each shop its own shopper budget"): a shopper reader's one
      // write, the counter's conditional UpdateItem, and only in the budget partitions.
      if (entry.grants?.includes('shopperBudget')) {
        fn.fn.addToRolePolicy(
          new PolicyStatement({
            actions: ['dynamodb:UpdateItem'],
            resources: [table.tableArn],
            conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [SHOPPER_BUDGET_PARTITIONS] } },
          }),
        );
      }
      if (uses.includes('authorizerCache') || entry.grants?.includes('keyStream')) {
        throw new Error(`${entry.name}: the authorizer cache and the key stream are granted by the authorizer cache flusher only`);
      }
      if (entry.grants?.includes('eventStream')) throw new Error(`${entry.name}: the event stream is granted by the event delivery only`);
      return fn.fn;
    };

    // The functions live in nested stacks by concern, so that the main stack keeps only what an update must not
    // replace (the table, the queues, the bus, the REST API and its routes) and a route costs it only its methods
    // (docs/decisions.md, "Nested stacks"). The authorizer stays here: its permission names the API's authorizer.
    const routeStack = new NestedStack(this, 'RouteFunctions', {
      description: "The API's functions: one per route, webhook, shopper route and page, each with its invoke permission",
    });
    const workerStack = new NestedStack(this, 'Workers', {
      description: 'The queue consumers, the event delivery and the authorizer-cache flusher',
    });
    const jobStack =
      jobs.length > 0 ? new NestedStack(this, 'ScheduledJobs', { description: 'The scheduled jobs and their schedules' }) : undefined;

    // API functions (routes and webhooks): their errors alarm per function.
    const handlers = new Map<string, IFunction>();
    // A route's function also serves its /admin/api twin, which verifies the ID token with the shop's app secret.
    for (const route of routes)
      handlers.set(route.name, manifestFunction(routeStack, { ...route, uses: routeUses(route) }, `${route.method} ${route.path}`));
    for (const hook of webhooks) handlers.set(hook.name, manifestFunction(routeStack, hook, `${hook.method} ${hook.path}`));
    for (const route of shopperRoutes) {
      // Every verified shopper request takes from its shop's budget: a table write, or the budget's narrow grant.
      if (route.table !== 'write' && !route.grants?.includes('shopperBudget')) {
        throw new Error(`${route.name}: a shopper route writes its shop's budget; give it table 'write' or the 'shopperBudget' grant`);
      }
      handlers.set(route.name, manifestFunction(routeStack, route, `${route.method} ${route.path}`));
    }
    // A page's function ships the app's script beside its handler (admin-app.js, read at its cold start).
    const buildAdminApp = (inputDir: string, outputDir: string) => [
      `node --import tsx "${inputDir}/infra/admin-ui/build-admin-app.ts" "${outputDir}/${ADMIN_APP_SCRIPT_NAME}"`,
    ];
    for (const page of pages)
      handlers.set(
        page.name,
        manifestFunction(
          routeStack,
          page,
          `${page.method} ${page.path}`,
          undefined,
          undefined,
          page.shipsAdminApp ? buildAdminApp : undefined,
        ),
      );

    const authorizer = manifestFunction(this, AUTHORIZER, 'API key authorizer');
    this.synchronousFunctions.push(...handlers.values(), authorizer);

    const workers = new Map<string, IFunction>();
    for (const entry of consumers) {
      const fromKlaviyo = queueOf(entry) === 'klaviyo';
      const fromFigures = queueOf(entry) === 'figures';
      const fn = manifestFunction(
        workerStack,
        entry,
        fromKlaviyo
          ? `Sends loyalty events to Klaviyo (${entry.name})`
          : fromFigures
            ? `Counts loyalty events in the program's figures (${entry.name})`
            : `Consumes the webhook delivery queue (${entry.name})`,
        entry.timeoutSeconds,
      );
      // Partial batch failures: only the records that failed return to the queue. The Klaviyo consumer runs at
      // most KLAVIYO_CONSUMER_CONCURRENCY at once, each within its share of an account's steady rate.
      fn.addEventSource(
        fromFigures
          ? new SqsEventSource(figures!.queue, { ...FIGURES_BATCH, reportBatchItemFailures: true })
          : fromKlaviyo
            ? new SqsEventSource(klaviyo!.queue, {
                ...KLAVIYO_BATCH,
                reportBatchItemFailures: true,
                maxConcurrency: KLAVIYO_CONSUMER_CONCURRENCY,
              })
            : new SqsEventSource(deliveries.queue, { ...DELIVERY_BATCH, reportBatchItemFailures: true }),
      );
      workers.set(entry.name, fn);
      this.queueConsumerFunctions.push(fn);
    }

    const jobFunctions = new Map<string, IFunction>();
    for (const job of jobs) {
      const fn = manifestFunction(jobStack!, job, `Scheduled job ${job.name}, ${job.cadence}`, job.timeoutSeconds, failedJobRuns);
      new Rule(jobStack!, constructId('Schedule', job.name), {
        description: `Run ${job.name} on ${job.cadence}`,
        schedule: Schedule.expression(job.cadence),
        targets: [new LambdaFunction(fn, { ...JOB_TARGET_RETRIES, deadLetterQueue: undeliveredEvents })],
      });
      jobFunctions.set(job.name, fn);
      this.scheduledJobFunctions.push(fn);
    }

    const partnerSource = props.shopifyEventSourceName
      ? new ShopifyEventSource(this, 'ShopifyEventSource', {
          eventSourceName: props.shopifyEventSourceName,
          queue: deliveries.queue,
          deadLetterQueue: undeliveredEvents,
        })
      : undefined;

    const authorizerCacheTtl = Duration.seconds(props.authorizerCacheTtlSeconds ?? 300);
    const api = new LoyaltyApi(this, 'Http', {
      routes,
      webhooks,
      shopperRoutes,
      // Every route's /admin/api twin, from the same routes (SURFACES-CONTRACT.md, "Staff routes").
      staffRoutes: staffRoutesOf(routes),
      pages,
      handlers,
      authorizer,
      logRetention,
      stageThrottle: stageThrottle(props.fullRateKeys ?? DEFAULT_FULL_RATE_KEYS),
      authorizerCacheTtl,
    });
    // One invoke permission per function, for the methods of this API's stage, beside the function in its nested
    // stack: a method costs the main stack no permission (a route used to cost it one per method).
    const invokedBy = new ServicePrincipal('apigateway.amazonaws.com');
    const stageMethods = Arn.format({ service: 'execute-api', resource: api.api.restApiId, resourceName: `${STAGE_NAME}/*` }, this);
    for (const fn of new Set(handlers.values())) fn.addPermission('InvokedByApi', { principal: invokedBy, sourceArn: stageMethods });
    this.firewall = props.waf
      ? new ApiFirewall(this, 'Firewall', {
          stage: api.api.deploymentStage,
          ...(props.wafRateLimit !== undefined ? { rateLimit: props.wafRateLimit } : {}),
        })
      : undefined;
    // With the cache on, every change of a key item flushes it (docs/decisions.md).
    const flusher =
      authorizerCacheTtl.toSeconds() > 0
        ? new AuthorizerCacheFlusher(this, 'AuthorizerCacheFlusher', {
            functionScope: workerStack,
            entry: AUTHORIZER_CACHE_FLUSHER,
            table,
            api: api.api,
            environment,
            logRetention,
          })
        : undefined;
    // The table's stream carries each committed domain event to the bus, at least once (docs/events.md).
    const eventDelivery = new EventDelivery(this, 'EventDelivery', {
      functionScope: workerStack,
      entry: EVENT_DELIVERY,
      table,
      bus,
      environment,
      logRetention,
    });
    // Alarms, their topic and the dashboard: what an operator watches, apart from what serves requests.
    const monitoringStack = new NestedStack(this, 'Monitoring', { description: 'Alarms, their topic and the dashboard' });
    const observability = new Observability(monitoringStack, 'Observability', {
      api: api.api,
      accessLogs: api.accessLogs,
      table,
      functions: new Map([...handlers, ...workers]),
      jobs: jobFunctions,
      queue: deliveries.queue,
      deadLetterQueues: {
        webhookDeliveries: deliveries.deadLetterQueue,
        undeliveredEvents,
        ...(failedJobRuns ? { failedJobRuns } : {}),
        ...(flusher ? { authorizerCacheFlushes: flusher.failures } : {}),
        eventDeliveries: eventDelivery.failures,
        ...(klaviyo ? { klaviyoDeliveries: klaviyo.deadLetterQueue, klaviyoRefused: klaviyo.refusedQueue } : {}),
      },
      eventDelivery: eventDelivery.fn,
      ...(flusher ? { authorizerCacheFlusher: flusher.fn } : {}),
      ...(props.alarmEmail ? { alarmEmail: props.alarmEmail } : {}),
    });

    new CfnOutput(this, 'ApiUrl', { value: api.api.url });
    new CfnOutput(this, 'WebhookUrls', { value: webhooks.map((hook) => `${hook.method} ${api.api.urlForPath(hook.path)}`).join(', ') });
    // What the Shopify app subscribes its topics to (`npx loyalty shopify-app-config --stack`).
    const shopifyWebhook = webhooks.find((hook) => hook.name === SHOPIFY_WEBHOOK);
    if (shopifyWebhook) new CfnOutput(this, 'ShopifyWebhookUrl', { value: api.api.urlForPath(shopifyWebhook.path) });
    new CfnOutput(this, 'TableName', { value: table.tableName });
    new CfnOutput(this, 'UsagePlanId', { value: api.usagePlan.usagePlanId });
    // The operator CLI flushes this stage's authorizer cache after a revoke.
    new CfnOutput(this, 'RestApiId', { value: api.api.restApiId });
    new CfnOutput(this, 'ApiStageName', { value: api.api.deploymentStage.stageName });
    new CfnOutput(this, 'EventBusName', { value: bus.eventBusName });
    // The webhook delivery queue's outputs keep the names operators and their scripts already read.
    new CfnOutput(this, 'OrderEventQueueUrl', { value: deliveries.queue.queueUrl });
    new CfnOutput(this, 'OrderEventDeadLetterQueueUrl', { value: deliveries.deadLetterQueue.queueUrl });
    if (failedJobRuns) new CfnOutput(this, 'FailedJobRunsQueueUrl', { value: failedJobRuns.queueUrl });
    if (partnerSource) new CfnOutput(this, 'ShopifyEventBusName', { value: partnerSource.bus.eventBusName });
    new CfnOutput(this, 'AlarmTopicArn', { value: observability.topic.topicArn });
    new CfnOutput(this, 'DashboardName', { value: observability.dashboard.dashboardName });
    new CfnOutput(this, 'ShopifySecretPrefix', { value: secretPrefix });
  }
}
