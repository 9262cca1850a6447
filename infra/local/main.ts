// `npm start`: runs the local twin from the command line of CONFIG-FORMAT.md, until a signal (or the
// end of the process that started it) stops it.
import './local-env';
import { parseArgs } from 'node:util';
import { memberProgressByShop } from '../../shared/runtime/progress';
import type { DeliveryMode } from './in-process-queue';
import { DEMO_CONFIG, startTwin, type Twin } from './twin';

const USAGE = `Usage: npm start -- [--config FILE] [--port N] [--platform-port M] [--dynamodb-port D] [--persist DIR] [--dynamodb-endpoint URL] [--table NAME] [--no-throttling] [--authorizer-cache-ttl SECONDS] [--deliveries queued|inline]`;

/** Wrong arguments: the message, then the usage line. */
class UsageError extends Error {}

function portOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new UsageError(`--${name} must be a port number (0-65535), got '${value}'`);
  return port;
}

/** API Gateway's range for an authorizer's result TTL: 0 (no cache) to 3600 s. */
function ttlOption(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (!/^\d+$/.test(value) || seconds > 3600) {
    throw new UsageError(`--authorizer-cache-ttl must be a whole number of seconds from 0 (no cache) to 3600, got '${value}'`);
  }
  return seconds;
}

/**
 * --deliveries: `inline` (default: a read right after a webhook shows its effects, as the docs' walk-throughs
 * expect) or `queued` (as SQS in the stack: a webhook is answered once queued; docs/local-twin.md).
 */
function deliveriesOption(value: string | undefined): DeliveryMode {
  if (value === 'queued') return 'queued';
  if (value === undefined || value === 'inline') return 'inline';
  throw new UsageError(`--deliveries must be queued or inline, got '${value}'`);
}

function parseCommandLine() {
  try {
    return parseArgs({
      options: {
        config: { type: 'string' },
        port: { type: 'string' },
        'platform-port': { type: 'string' },
        'dynamodb-port': { type: 'string' },
        persist: { type: 'string' },
        'dynamodb-endpoint': { type: 'string' },
        table: { type: 'string' },
        'no-throttling': { type: 'boolean' },
        'authorizer-cache-ttl': { type: 'string' },
        deliveries: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function printBanner(twin: Twin): void {
  // The first line is a contract (CONFIG-FORMAT.md): tools wait for it.
  console.log(`Loyalty API listening on ${twin.url}`);
  // Each shop's storefront with the theme app extension; sign in at …/account/login (docs/storefront.md).
  for (const shop of twin.shops) console.log(`Storefront of ${shop.shopId}: ${twin.simulator.storefrontUrl(shop.shopId)}`);
  // Each shop's admin with the app's home open in its frame (docs/admin.md).
  for (const shop of twin.shops) console.log(`Admin of ${shop.shopId}: ${twin.simulator.adminUrl(shop.shopId)}`);
  // Each shop's customer account page with the account extension, as the storefront's signed-in customer or
  // ?customer_id=ID (docs/customer-account.md#see-it-locally).
  for (const shop of twin.shops) console.log(`Customer account of ${shop.shopId}: ${twin.simulator.accountUrl(shop.shopId)}`);
  // Each shop's checkout of one product with the checkout extensions, as the storefront's signed-in customer,
  // ?customer_id=ID or a guest; Pay opens the thank-you page (docs/checkout.md#see-it-locally).
  for (const shop of twin.shops) console.log(`Checkout of ${shop.shopId}: ${twin.simulator.checkoutUrl(shop.shopId)}`);
  for (const shop of twin.shops) console.log(`POS of ${shop.shopId} (staff user 42): ${twin.simulator.posUrl(shop.shopId)}`);
  console.log(`API reference: ${twin.url}/docs (OpenAPI document: ${twin.url}/openapi.json)`);
  console.log(`Platform simulator on ${twin.platformUrl} (PUT /_faults, GET /_discount_codes)`);
  console.log(`DynamoDB: ${twin.dynamodbEndpoint}, table ${twin.tableName}`);
  console.log(
    twin.authorizerCacheTtlSeconds === 0
      ? 'Authorizer cache: off (--authorizer-cache-ttl 0)'
      : `Authorizer cache: ${twin.authorizerCacheTtlSeconds} s per key (--authorizer-cache-ttl)`,
  );
  for (const shop of twin.shops) {
    console.log(`Shop ${shop.shopId}: ${shop.membersImported} members imported, ${shop.membersKept} kept`);
    for (const key of shop.keys) {
      console.log(`  key ${key.key}  (${key.name}, ${key.scope}${key.revoked ? ', revoked' : ''})`);
    }
  }
  console.log(`Operator CLI for this twin: ${twin.cliCommand}`);
  console.log('Press Ctrl-C to stop (or send SIGTERM).');
}

/**
 * Stops on SIGINT, SIGTERM or SIGHUP: the servers close, DynamoDB Local stops, exit code 0 (1 when
 * the stop failed or took over 15 s). A terminal's Ctrl-C reaches npm and the twin at once and npm
 * forwards it, so a repeat within a second is the same request; a later one exits at once
 * (DynamoDB Local's watchdog still stops Java). The twin also stops when the process that started
 * it is gone (npm killed with -9, a closed terminal's shell): it is then re-parented.
 * Installed before the start: a signal before the ready line lets the start finish (or fail), stops
 * what it started and exits 0 too, saying so, instead of dying with the signal's code.
 */
function stopOnSignalOrOrphaning(): { starting(start: Promise<Twin>): void; ready(): boolean; stopping(): boolean } {
  let start: Promise<Twin> | undefined;
  let isReady = false;
  let stoppingSince: number | undefined;
  const shutdown = (reason: string) => {
    if (stoppingSince !== undefined) {
      if (Date.now() - stoppingSince < 1000) return;
      console.error(`${reason} again: exiting now`);
      process.exit(1);
    }
    stoppingSince = Date.now();
    const early = !isReady;
    console.log(early ? `\n${reason} before the twin was ready: stopping what has started` : `\n${reason}: stopping`);
    setTimeout(() => {
      console.error('stop took over 15 s: exiting');
      process.exit(1);
    }, 15_000).unref();
    // A start that fails after the signal has stopped what it started itself; there is nothing to report.
    const stopped = start
      ? start.then(
          (twin) => twin.stop(),
          () => undefined,
        )
      : Promise.resolve();
    stopped.then(
      () => {
        if (early) console.log('Stopped before the twin was ready.');
        process.exit(0);
      },
      (error: unknown) => {
        console.error(`stop failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => shutdown(signal));
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) shutdown(`parent process ${parent} is gone`);
  }, 1000).unref();
  return {
    starting: (promise) => {
      start = promise;
    },
    ready: () => (isReady = stoppingSince === undefined),
    stopping: () => stoppingSince !== undefined,
  };
}

// First of all: from here on a signal stops the twin cleanly, ready or not.
const stop = stopOnSignalOrOrphaning();

async function main(): Promise<void> {
  const values = parseCommandLine();
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = portOption('port', values.port) ?? 3000;
  const platformPort = portOption('platform-port', values['platform-port']);
  const dynamodbPort = portOption('dynamodb-port', values['dynamodb-port']);
  const authorizerCacheTtlSeconds = ttlOption(values['authorizer-cache-ttl']);
  const deliveries = deliveriesOption(values.deliveries);
  const start = startTwin({
    config: values.config ?? DEMO_CONFIG,
    port,
    ...(platformPort !== undefined ? { platformPort } : {}),
    ...(dynamodbPort !== undefined ? { dynamodbPort } : {}),
    ...(values.persist ? { persistDir: values.persist } : {}),
    ...(values['dynamodb-endpoint'] ? { dynamodbEndpoint: values['dynamodb-endpoint'] } : {}),
    ...(values.table ? { tableName: values.table } : {}),
    ...(values['no-throttling'] ? { throttling: false } : {}),
    ...(authorizerCacheTtlSeconds !== undefined ? { authorizerCacheTtlSeconds } : {}),
    deliveries,
    // A large configuration's members take minutes to load: their progress on stderr, as `loyalty config apply` shows it.
    onMembersProgress: memberProgressByShop({
      line: (text) => console.error(text),
      isTty: process.stderr.isTTY === true,
      write: (text) => process.stderr.write(text),
    }),
  });
  stop.starting(start);
  const twin = await start;
  // Stopping already (a signal during the start): the stop prints its own line and exits.
  if (!stop.ready()) return;
  printBanner(twin);
}

main().catch((error: unknown) => {
  // Configuration, port and --persist errors say what to fix; only wrong arguments need the usage.
  // A start that fails while a signal stops it is no failure: the stop exits 0.
  if (stop.stopping()) return;
  console.error(error instanceof Error ? error.message : error);
  if (error instanceof UsageError) console.error(USAGE);
  process.exit(1);
});
