// The local twin: DynamoDB Local (or a given endpoint), the table, the configuration file, the platform
// simulator and the local gateway, wired the way the stack wires the cloud.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ShopProgress } from '../../shared/runtime/progress';
import { applyConfig, type ShopSummary } from '../../shared/shops/apply-config';
import { resetEnv, type Env } from '../../shared/runtime/env';
import { readConfigFile, type ConfigFile } from '../../shared/config/schema';
import { resetDocumentClient } from '../../shared/data/client';
import { dynamoDbStats, pauseDynamoDbStats, resetDynamoDbStats } from '../../shared/data/dynamodb-stats';
import { setEventBus } from '../../shared/outbound/event-bus';
import { resetKlaviyoConsumer, setKlaviyoRefusals } from '../../shared/klaviyo/klaviyo-consumer';
import { platformForShop, resetPlatforms } from '../../shared/platform/platform-for-shop';
import { purchaseReconcilerJob } from '../../shared/purchases/purchase-reconciler';
import { buildOpenApiDocument } from '../../shared/openapi/openapi-document';
import {
  ADMIN_PAGES,
  EVENT_DELIVERY,
  QUEUE_CONSUMERS,
  ROUTES,
  SCHEDULED_JOBS,
  SHOPPER_ROUTES,
  STAFF_ROUTES,
  WEBHOOKS,
} from '../../shared/runtime/entry-points';
import { bundleAdminApp } from '../admin-ui/admin-app-bundle';
import { ADMIN_APP_SCRIPT_NAME } from '../../shared/http/admin-page';
import { registerLocalShopSecrets } from '../../shared/platform/shop-secrets';
import { SHOPIFY_APP_PROXY } from '../../shared/platform/shopify-app';
import { setDeliveryQueue } from '../../shared/webhooks/delivery-queue';
import type { WebhookDelivery } from '../../shared/webhooks/queued-delivery';
import { now as clockNow, nowIso, setClock } from '../../shared/runtime/clock';
import { onApiKeyChange } from '../../shared/data/api-key-changes';
import { apiReferenceEndpoints } from './api-reference-endpoints';
import { coalescedRuns } from './coalesced-runs';
import { type AuthorizerCache, authorizerCache, DEFAULT_AUTHORIZER_CACHE_TTL_SECONDS } from './authorizer-cache';
import { DEFAULT_LOCAL_TABLE, ensureTable, localClient, startDynamoDbLocal, type DynamoDbLocal } from './dynamodb-local';
import { ControlError, startGateway, WithHeaders, type Gateway } from './gateway';
import { type DeliveryMode, type DrainableQueue, inProcessQueue } from './in-process-queue';
import { klaviyoQueue, klaviyoRefusals, klaviyoSubscriber, klaviyoTarget, type KlaviyoTarget } from './klaviyo-target';
import { figuresTarget, type FiguresTarget } from './figures-target';
import { setTimeout as delay } from 'node:timers/promises';
import { startPlatformSimulator, type PlatformSimulator } from './simulator/platform-simulator';
import { twinBus, type TwinBus } from './twin-bus';
import { streamDelivery } from './twin-event-delivery';
import { startEventStreamReader, type EventStreamReader } from './twin-event-stream';
import { registerTwin } from './twin-registry';
import { twinUsagePlan, type TwinUsagePlan } from './twin-usage-plan';
import { storedUsageKeys, syncConfigUsageKeys } from '../../shared/shops/usage-plan-keys';
import { twinShopSecrets } from './twin-shop-secrets';
import { assertPortsAvailable, namePortError, type NamedPort } from './port-check';

export const PROJECT_ROOT = resolve(__dirname, '..', '..');

/** A scheduled job's handler module: beside `handler`, one run of the job (shared/runtime/entry-points.ts). */
const jobModules = new Map<string, Promise<{ run(): Promise<unknown> }>>();
function jobModule(handler: string): Promise<{ run(): Promise<unknown> }> {
  let module = jobModules.get(handler);
  if (!module) {
    module = import(join(PROJECT_ROOT, handler)) as Promise<{ run(): Promise<unknown> }>;
    jobModules.set(handler, module);
  }
  return module;
}
export const DEMO_CONFIG = resolve(PROJECT_ROOT, 'config', 'demo.json');

export interface TwinOptions {
  /** Path of the configuration file, or an already parsed configuration. */
  config: string | ConfigFile;
  port?: number;
  /** Platform simulator port; default port + 1 (random when port is 0). */
  platformPort?: number;
  /** DynamoDB Local's port; default port + 2 (random when port is 0). Not with `dynamodbEndpoint`. */
  dynamodbPort?: number;
  /**
   * Keep DynamoDB Local's data, the events file and the simulator's discount codes in this directory
   * between runs; one live twin per directory. Not with `dynamodbEndpoint`.
   */
  persistDir?: string;
  /** Use this DynamoDB instead of starting DynamoDB Local. */
  dynamodbEndpoint?: string;
  tableName?: string;
  host?: string;
  /** Per-key throttling of the usage plan (default on). */
  throttling?: boolean;
  /** How long the simulator's webhook deliveries wait for the twin's answer (default 5 s, as Shopify). */
  webhookDeliveryTimeoutMs?: number;
  /** Seconds the gateway keeps an authorizer answer per Authorization value (default 300, as the stack; 0: off). */
  authorizerCacheTtlSeconds?: number;
  /** Further settings of the functions (e.g. SHOP_CONFIG_TTL_SECONDS), set with the twin's own. */
  environment?: Partial<Record<keyof Env, string>>;
  /** Hears each shop's members loaded so far while the configuration is applied (`npm start` shows them on stderr). */
  onMembersProgress?: ShopProgress;
  /**
   * How the webhook delivery queue hands deliveries to their processor: `inline` (default) inside the
   * receiver's request, so its effects are visible when the webhook is answered; `queued` in the background
   * after the receiver answered, as SQS does in the stack (`POST /_deliveries/drain` waits for them).
   */
  deliveries?: DeliveryMode;
}

export interface Twin {
  url: string;
  platformUrl: string;
  /** Settles once no function invocation of the gateway runs, timed-out ones included (Gateway.idle). */
  idle(): Promise<void>;
  /** The operator CLI's command line for this twin's table, e.g. `npx loyalty keys list --shop demo --endpoint ...`. */
  cliCommand: string;
  eventsLogFile: string;
  dynamodbEndpoint: string;
  tableName: string;
  /** How long the gateway keeps an authorizer answer (0: not at all). */
  authorizerCacheTtlSeconds: number;
  shops: ShopSummary[];
  simulator: PlatformSimulator;
  /**
   * The webhook delivery queue: its dead letters are the deliveries the processor failed on every attempt;
   * `drained()` resolves once every delivery received so far was processed (or set aside).
   */
  deliveryQueue: DrainableQueue;
  /** The event bus committed events are delivered to: `subscribe(target)` hands each accepted event to a consumer. */
  bus: Pick<TwinBus, 'subscribe' | 'list' | 'accepted'>;
  /** The reader of the table's stream that delivers committed events to the bus. */
  eventStream: EventStreamReader;
  /** The Klaviyo rule's target: the queue of the events for Klaviyo, `idle()` once it has worked them all. */
  klaviyo: KlaviyoTarget;
  /** The figures rule's target: the queue of every event for the program's figures, `idle()` once all are counted. */
  figures: FiguresTarget;
  /** What the simulator's Klaviyo refused (the refusals queue; GET /_klaviyo/queue). */
  klaviyoRefused(): unknown[];
  /** The gateway's usage plan: a loyalty key is taken only with an enabled usage-plan key of it. */
  usagePlan: TwinUsagePlan;
  stop(): Promise<void>;
}

/** The ports the twin listens on: the API, the simulator and (unless given an endpoint) DynamoDB Local. */
function twinPorts(options: TwinOptions, port: number, host: string) {
  if (options.dynamodbEndpoint && (options.dynamodbPort !== undefined || options.persistDir)) {
    throw new Error('--dynamodb-port and --persist apply to the DynamoDB Local the twin starts; with --dynamodb-endpoint it starts none');
  }
  const derived = (offset: number) => (port === 0 ? 0 : port + offset);
  // A taken port suggests a free value of the option that sets it: --port for the API and the ports derived
  // from it (the API and each derived port free), otherwise the port's own option.
  const derives = options.platformPort === undefined || (!options.dynamodbEndpoint && options.dynamodbPort === undefined);
  const byPort = { option: '--port', count: derives ? 3 : 1, from: port };
  const apiPort: NamedPort = { port, host, label: 'API, --port', suggest: byPort };
  const platformPort: NamedPort =
    options.platformPort !== undefined
      ? {
          port: options.platformPort,
          host,
          label: 'platform simulator, --platform-port',
          suggest: { option: '--platform-port', count: 1, from: options.platformPort },
        }
      : { port: derived(1), host, label: 'platform simulator, --platform-port, default --port + 1', suggest: byPort };
  const dynamodbPort: NamedPort | null = options.dynamodbEndpoint
    ? null
    : options.dynamodbPort !== undefined
      ? {
          port: options.dynamodbPort,
          host: '0.0.0.0',
          label: 'DynamoDB Local, --dynamodb-port',
          suggest: { option: '--dynamodb-port', count: 1, from: options.dynamodbPort },
        }
      : { port: derived(2), host: '0.0.0.0', label: 'DynamoDB Local, --dynamodb-port, default --port + 2', suggest: byPort };
  return { apiPort, platformPort, dynamodbPort };
}

/** What the twin stops, last started first. */
type Stops = Array<() => Promise<void>>;

export async function startTwin(options: TwinOptions): Promise<Twin> {
  const config = typeof options.config === 'string' ? readConfigFile(options.config) : options.config;
  const tableName = options.tableName ?? DEFAULT_LOCAL_TABLE;
  const port = options.port ?? 3000;
  const host = options.host ?? '127.0.0.1';
  const { apiPort, platformPort, dynamodbPort } = twinPorts(options, port, host);
  // Before anything starts: a taken port is named at once instead of failing seconds into the start.
  await assertPortsAvailable([apiPort, platformPort, ...(dynamodbPort ? [dynamodbPort] : [])]);

  const stops: Stops = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    stops.length = 0;
  };

  try {
    const endpoint = options.dynamodbEndpoint ?? (await startOwnDynamoDb(options, dynamodbPort!, port, stops));
    const persistDir = options.persistDir ? resolve(options.persistDir) : undefined;
    const simulator = await startSimulator(config, options, { platformPort, host, persistDir });
    stops.push(() => simulator.stop());
    const eventsLogFile = await setHandlerEnvironment({ options, tableName, endpoint, simulator, persistDir, stops });
    // Credentials and webhook secrets stay in process (in the cloud: Secrets Manager), never in the table.
    registerLocalShopSecrets(twinShopSecrets(config));
    const deliveryQueue = startDeliveryQueue(options);
    const admin = localClient(endpoint);
    await ensureTable(admin, tableName);
    admin.destroy();
    const pipeline = await startEventPipeline({ endpoint, tableName, eventsLogFile, simulator, persistDir, stops });

    const shops = await applyConfig(config, options.onMembersProgress ? { onProgress: options.onMembersProgress } : {});
    const { usagePlan, authorizerAnswers } = await startKeyPlane(config, options, stops);

    // Run once the gateway has stopped taking webhooks: deliveries being processed may finish (a few seconds
    // at most), those still waiting are dropped, as a deleted queue's messages are.
    stops.push(async () => {
      await Promise.race([deliveryQueue.drained(), delay(5000, undefined, { ref: false })]);
      await deliveryQueue.stop();
    });
    const controls = twinControls({ pipeline, deliveryQueue, authorizerAnswers, usagePlan });
    const gateway = await startTwinGateway({ options, port, host, apiPort, stops, authorizerAnswers, usagePlan, controls });
    const unregister = registerTwin({
      url: gateway.url,
      dynamodbEndpoint: endpoint,
      tableName,
      platformUrl: simulator.url,
      // Where the shops' credentials are (the CLI's import asks the simulator for tokens with them); never the secrets.
      ...(typeof options.config === 'string' ? { configFile: resolve(options.config) } : {}),
    });
    stops.push(async () => unregister());
    pointSimulatorAt(simulator, gateway.url);
    stops.push(async () => setClock(null));
    stops.push(async () => resetDocumentClient());

    const table = tableName === DEFAULT_LOCAL_TABLE ? '' : ` --table ${tableName}`;
    return {
      url: gateway.url,
      platformUrl: simulator.url,
      idle: () => gateway.idle(),
      cliCommand: `npx loyalty keys list --shop ${config.shops[0]?.id ?? 'SHOP'} --endpoint ${endpoint}${table}`,
      eventsLogFile,
      dynamodbEndpoint: endpoint,
      tableName,
      authorizerCacheTtlSeconds: authorizerAnswers.ttlSeconds,
      shops,
      simulator,
      deliveryQueue,
      bus: pipeline.bus,
      eventStream: pipeline.eventStream,
      klaviyo: pipeline.klaviyo,
      figures: pipeline.figures,
      klaviyoRefused: () => pipeline.refusals.list(),
      usagePlan,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** The webhook delivery queue the receiver puts deliveries on, in the twin's mode (inline or queued). */
function startDeliveryQueue(options: TwinOptions): DrainableQueue {
  const deliveryQueue = inProcessQueue(PROJECT_ROOT, consumerOf('webhookDeliveries'), {
    mode: options.deliveries ?? 'inline',
    orderingKey: deliveryOrderingKey,
  });
  setDeliveryQueue(deliveryQueue);
  return deliveryQueue;
}

/**
 * The usage plan, as the stack's: the usage-plan keys the table's keys already hold (a twin before this one gave
 * them), then what `config apply` does in the cloud, a usage-plan key for each active key of the file. And as in the
 * cloud: every key write -> change notice -> the stage's authorizer cache flushed.
 */
async function startKeyPlane(config: ConfigFile, options: TwinOptions, stops: Stops) {
  const usagePlan = twinUsagePlan();
  usagePlan.adopt(await storedUsageKeys());
  await syncConfigUsageKeys(config, usagePlan);
  const authorizerAnswers = authorizerCache(options.authorizerCacheTtlSeconds ?? DEFAULT_AUTHORIZER_CACHE_TTL_SECONDS);
  const stopFlushing = onApiKeyChange(() => authorizerAnswers.flush());
  stops.push(async () => stopFlushing());
  return { usagePlan, authorizerAnswers };
}

/** DynamoDB Local on its port (with --persist, its data kept in the directory): its endpoint. */
async function startOwnDynamoDb(options: TwinOptions, dynamodbPort: NamedPort, port: number, stops: Stops): Promise<string> {
  const dynamo: DynamoDbLocal = await startDynamoDbLocal({
    port: dynamodbPort.port,
    ...(options.persistDir ? { persistDir: options.persistDir, holder: `the twin with its API on port ${port}` } : {}),
  });
  stops.push(() => dynamo.stop());
  return dynamo.endpoint;
}

/** The gateway with every route of the manifest, the twin's control endpoints, the usage plan and the authorizer cache. */
async function startTwinGateway({
  options,
  port,
  host,
  apiPort,
  stops,
  authorizerAnswers,
  usagePlan,
  controls,
}: {
  options: TwinOptions;
  port: number;
  host: string;
  apiPort: NamedPort;
  stops: Stops;
  authorizerAnswers: AuthorizerCache;
  usagePlan: TwinUsagePlan;
  controls: Record<string, (body: string | null) => Promise<unknown>>;
}): Promise<Gateway> {
  const gateway = await startGateway({
    routes: ROUTES,
    webhooks: WEBHOOKS,
    shopperRoutes: SHOPPER_ROUTES,
    staffRoutes: STAFF_ROUTES,
    pages: ADMIN_PAGES,
    root: PROJECT_ROOT,
    port,
    host,
    control: controls,
    ...(options.throttling === false ? { limiter: null } : {}),
    authorizerCache: authorizerAnswers,
    usagePlan,
  }).catch((error: unknown) => {
    throw namePortError(error, apiPort);
  });
  stops.push(() => gateway.stop());
  return gateway;
}

/** The platform simulator with the configuration's shops, stamped with the twin's clock. */
async function startSimulator(
  config: ConfigFile,
  options: TwinOptions,
  { platformPort, host, persistDir }: { platformPort: NamedPort; host: string; persistDir: string | undefined },
): Promise<PlatformSimulator> {
  return startPlatformSimulator({
    port: platformPort.port,
    host,
    shops: Object.fromEntries(
      config.shops.map((shop) => [
        shop.id,
        {
          customers: shop.platform.customers,
          name: shop.name,
          shop_domain: shop.platform.shop_domain,
          webhook_secret: shop.platform.webhook_secret,
          // A Dev Dashboard app: the simulator grants tokens for this pair and takes no others.
          client_id: shop.platform.client_id,
          client_secret: shop.platform.client_secret,
          currency: shop.currency,
        },
      ]),
    ),
    // Orders, refunds and deliveries are stamped with the twin's clock (PUT /_clock).
    now: clockNow,
    ...(options.webhookDeliveryTimeoutMs ? { deliveryTimeoutMs: options.webhookDeliveryTimeoutMs } : {}),
    ...(persistDir
      ? {
          codesFile: join(persistDir, 'platform-discount-codes.json'),
          storeCreditFile: join(persistDir, 'platform-store-credit.json'),
        }
      : {}),
    klaviyoKeys: config.shops.flatMap((shop) => (shop.integrations.klaviyo ? [shop.integrations.klaviyo.private_key] : [])),
  }).catch((error: unknown) => {
    throw namePortError(error, platformPort);
  });
}

/**
 * The handlers read their settings from the environment, exactly as in Lambda: set them (and reset what was read
 * from an earlier twin's). Answers the events log file.
 */
async function setHandlerEnvironment({
  options,
  tableName,
  endpoint,
  simulator,
  persistDir,
  stops,
}: {
  options: TwinOptions;
  tableName: string;
  endpoint: string;
  simulator: PlatformSimulator;
  persistDir: string | undefined;
  stops: Stops;
}): Promise<string> {
  process.env.TABLE_NAME = tableName;
  process.env.DYNAMODB_ENDPOINT = endpoint;
  process.env.PLATFORM_BASE_URL = simulator.url;
  process.env.KLAVIYO_BASE_URL = simulator.klaviyoUrl;
  process.env.AWS_REGION ??= 'us-east-1';
  let eventsLogFile: string;
  if (persistDir) {
    // Kept with the data, so the events match the balances after a restart.
    eventsLogFile = join(persistDir, 'events.jsonl');
  } else {
    const eventsDir = await mkdtemp(join(tmpdir(), 'loyalty-events-'));
    eventsLogFile = join(eventsDir, 'events.jsonl');
    stops.push(() => rm(eventsDir, { recursive: true, force: true }));
  }
  process.env.EVENTS_LOG_FILE = eventsLogFile;
  // The app's home runs with nothing from outside: App Bridge is the simulator's stand-in, the page may be
  // framed by the simulator's admin, and its script is built now (docs/decisions.md).
  process.env.APP_BRIDGE_SCRIPT_URL = simulator.appBridgeUrl;
  process.env.ADMIN_FRAME_ANCESTORS = new URL(simulator.url).origin;
  process.env.ADMIN_APP_SCRIPT_FILE = await writeAdminAppScript(stops);
  // The shops' shopper budgets are throttles too: off with the gateway's (the bench), else as deployed.
  if (options.throttling === false) process.env.SHOPPER_BUDGET = 'false';
  else delete process.env.SHOPPER_BUDGET;
  Object.assign(process.env, options.environment);
  resetEnv();
  resetDocumentClient();
  resetPlatforms();
  return eventsLogFile;
}

/**
 * As in the cloud: the table's stream carries each committed domain event to the bus, at least once, and the bus's
 * rules hand every delivered event to the Klaviyo queue and to the figures queue, each with its consumer.
 */
async function startEventPipeline({
  endpoint,
  tableName,
  eventsLogFile,
  simulator,
  persistDir,
  stops,
}: {
  endpoint: string;
  tableName: string;
  eventsLogFile: string;
  simulator: PlatformSimulator;
  persistDir: string | undefined;
  stops: Stops;
}) {
  // The Klaviyo rule's target and its consumer, pointed at the simulator's Klaviyo (KLAVIYO_BASE_URL).
  const refusals = klaviyoRefusals();
  setKlaviyoRefusals(refusals);
  resetKlaviyoConsumer();
  const klaviyo = klaviyoTarget(klaviyoQueue(PROJECT_ROOT, consumerOf('klaviyo')));
  stops.push(async () => {
    // The Klaviyo queue's work in flight may finish (a few seconds at most: a throttled Klaviyo is not waited out).
    await Promise.race([klaviyo.idle(), delay(5000, undefined, { ref: false })]);
    setDeliveryQueue(undefined);
    setKlaviyoRefusals(undefined);
    registerLocalShopSecrets(null);
  });
  const bus = twinBus({ file: eventsLogFile, refusing: () => simulator.faults().bus === 'error' });
  setEventBus(bus);
  stops.push(async () => setEventBus(undefined));
  // As the stack's rule on the bus: every delivered event reaches the Klaviyo queue.
  const unsubscribeKlaviyo = bus.subscribe(klaviyoSubscriber(klaviyo));
  stops.push(async () => {
    unsubscribeKlaviyo();
    await Promise.race([klaviyo.idle(), delay(5000, undefined, { ref: false })]);
  });
  // As the stack's figures rule: every delivered event reaches the figures queue, whose consumer counts it once.
  const figures = figuresTarget(PROJECT_ROOT, consumerOf('figures'));
  const unsubscribeFigures = bus.subscribe(figures);
  stops.push(async () => {
    unsubscribeFigures();
    await Promise.race([figures.idle(), delay(5000, undefined, { ref: false })]);
    // What is still queued is dropped, as a deleted queue's messages are: nothing runs on after the twin.
    await figures.stop();
  });
  const eventStream = await startEventStreamReader({
    endpoint,
    tableName,
    deliver: streamDelivery(PROJECT_ROOT, EVENT_DELIVERY),
    busRefusing: () => simulator.faults().bus === 'error',
    ...(persistDir ? { checkpointFile: join(persistDir, 'event-stream-checkpoint.json') } : {}),
  });
  stops.push(() => eventStream.stop());
  return { refusals, klaviyo, bus, figures, eventStream };
}

/** Where the simulator sends webhooks and app-proxy requests, frames the app's home and points the extensions. */
function pointSimulatorAt(simulator: PlatformSimulator, apiUrl: string): void {
  simulator.setWebhookUrl(`${apiUrl}${WEBHOOKS[0]!.path}`);
  // The app proxy's url in shopify.app.toml: `{api}/shopper`.
  simulator.setAppProxyUrl(`${apiUrl}${SHOPIFY_APP_PROXY.path}`);
  // The app's application_url: `{api}/admin`.
  simulator.setAdminAppUrl(`${apiUrl}${ADMIN_PAGES[0]!.path}`);
  // The customer account extension's SERVICE_URL: the API itself.
  simulator.setAccountServiceUrl(apiUrl);
}

/** The twin's own control endpoints (docs/local-twin.md), by "METHOD /path". */
function twinControls({
  pipeline,
  deliveryQueue,
  authorizerAnswers,
  usagePlan,
}: {
  pipeline: Awaited<ReturnType<typeof startEventPipeline>>;
  deliveryQueue: DrainableQueue;
  authorizerAnswers: AuthorizerCache;
  usagePlan: TwinUsagePlan;
}): Record<string, (body: string | null) => Promise<unknown>> {
  const { bus, eventStream, klaviyo, refusals } = pipeline;
  return {
    // What the bus received, once the reader has handed on every change committed before this request.
    'GET /_events': async () => {
      await eventStream.caughtUp();
      return { events: await bus.list() };
    },
    // The webhook delivery queue: how many deliveries wait, are being processed, were processed or set aside.
    'GET /_deliveries': async () => deliveryQueue.counts(),
    // Answers once every delivery received before this request was processed (or set aside): with
    // `deliveries: 'queued'`, what a test or an audit calls before it reads the effects of webhooks.
    'POST /_deliveries/drain': async () => deliveryQueue.drained(),
    // The Klaviyo queue's two dead-letter queues: what Klaviyo refused, and what was never delivered.
    'GET /_klaviyo/queue': async () => ({ refused: refusals.list(), dead_letters: klaviyo.queue.deadLetters() }),
    'POST /_reconcile': () => purchaseReconcilerJob({ platformFor: platformForShop, settleAfterMs: 0 }),
    'GET /_clock': async () => ({ now: nowIso() }),
    'PUT /_clock': async (body) => {
      setClock(parseClockBody(body));
      return { now: nowIso() };
    },
    'POST /_jobs/run': everyJobOnce(),
    'GET /openapi.json': async () => buildOpenApiDocument(),
    ...apiReferenceEndpoints(),
    'GET /_dynamodb-stats': async () => dynamoDbStats(),
    'POST /_dynamodb-stats/reset': async () => {
      resetDynamoDbStats();
      return dynamoDbStats();
    },
    'POST /_dynamodb-stats/pause': async () => {
      pauseDynamoDbStats();
      return dynamoDbStats();
    },
    // What FlushStageAuthorizersCache is in the cloud: the operator CLI calls it after a key write to
    // this twin's table from another process (infra/local/twin-registry.ts).
    'POST /_authorizer-cache/flush': async () => {
      authorizerAnswers.flush();
      return { flushed: true, ttl_seconds: authorizerAnswers.ttlSeconds };
    },
    // The usage plan's keys, as API Gateway's CreateApiKey, CreateUsagePlanKey and UpdateApiKey: the operator
    // CLI's `config apply`, `keys create` and `keys revoke` against this twin's table call them.
    ...usagePlan.controls(),
    // CPU the twin's process has used so far: the bench divides it by the requests it sent.
    'GET /_cpu': async () => {
      const { user, system } = process.cpuUsage();
      return { userMicros: user, systemMicros: system };
    },
  };
}

/**
 * `POST /_jobs/run`: every scheduled job of the manifest once, at the clock's time, in the manifest's order (the
 * contract's: order reconciliation first, then approval, expiry, reminders, code expiry and birthdays, the purchase
 * reconciler last), each through its handler module's `run`; in the twin these jobs run only here. Runs of one job
 * never overlap, as in the stack (infra/local/coalesced-runs.ts).
 *
 * As the stack's schedule: the jobs do not wait for the webhook deliveries still queued (with `deliveries:
 * 'queued'`), so order reconciliation may apply an order as it is now before an earlier snapshot's delivery, which
 * then changes nothing. A test that reads the effects of its webhooks first calls POST /_deliveries/drain. The
 * answer's Server-Timing header gives each job's own time.
 */
function everyJobOnce(): () => Promise<WithHeaders> {
  // One runner per scheduled job: a run asked for while one is going starts when it ends.
  const jobRuns = new Map(SCHEDULED_JOBS.map((job) => [job.name, coalescedRuns(async () => (await jobModule(job.handler)).run())]));
  return async () => {
    const timings: string[] = [];
    const counts: Record<string, unknown> = {};
    for (const job of SCHEDULED_JOBS) {
      const started = performance.now();
      try {
        counts[job.name] = await jobRuns.get(job.name)!();
      } finally {
        timings.push(`${job.name};dur=${(performance.now() - started).toFixed(1)}`);
      }
    }
    return new WithHeaders(counts, { 'Server-Timing': timings.join(', ') });
  };
}

/**
 * What keeps queued webhook deliveries in order: the order they are about (an order topic's `id`, a refund's
 * `order_id`), so one order's snapshots are processed in the order sent; other topics are not ordered.
 */
export function deliveryOrderingKey(delivery: WebhookDelivery): string | null {
  if (!delivery.topic.startsWith('orders/') && !delivery.topic.startsWith('refunds/')) return null;
  try {
    const body = JSON.parse(delivery.body) as { id?: unknown; order_id?: unknown };
    const orderId = delivery.topic.startsWith('refunds/') ? body.order_id : body.id;
    return orderId === undefined || orderId === null ? null : `${delivery.shopId} ${String(orderId)}`;
  } catch {
    return null;
  }
}

/** The manifest's consumer of one queue. */
function consumerOf(queue: 'webhookDeliveries' | 'klaviyo' | 'figures') {
  const consumer = QUEUE_CONSUMERS.find((entry) => (entry.queue ?? 'webhookDeliveries') === queue);
  if (!consumer) throw new Error(`The manifest has no consumer of the ${queue} queue`);
  return consumer;
}

/** The app's home's script, built into a folder of its own that the twin's stop removes; answers the file. */
async function writeAdminAppScript(stops: Array<() => Promise<void>>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'loyalty-admin-app-'));
  stops.push(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, ADMIN_APP_SCRIPT_NAME);
  await writeFile(file, (await bundleAdminApp()).code);
  return file;
}

/** PUT /_clock's body: `{ "now": ISO timestamp }` holds the clock there, `{ "now": null }` returns to real time. */
function parseClockBody(body: string | null): Date | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body ?? '');
  } catch {
    throw new ControlError(400, 'Body must be JSON: { "now": "<ISO timestamp>" | null }');
  }
  const value = (parsed as { now?: unknown } | null)?.now;
  if (value === null) return null;
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(Date.parse(value))) {
    throw new ControlError(400, '"now" must be an ISO 8601 timestamp such as "2027-01-15T00:00:00.000Z", or null');
  }
  return new Date(value);
}
