// `npm start`: runs the local twin from the command line of CONFIG-FORMAT.md.
import './local-env';
import { parseArgs } from 'node:util';
import { ConfigError } from '../../shared/config/schema';
import { DEMO_CONFIG, startTwin } from './twin';

const USAGE = `Usage: npm start -- [--config FILE] [--port N] [--platform-port M] [--persist DIR] [--dynamodb-endpoint URL] [--table NAME] [--no-throttling]`;

function portOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--${name} must be a port number, got '${value}'`);
  return port;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      config: { type: 'string' },
      port: { type: 'string' },
      'platform-port': { type: 'string' },
      persist: { type: 'string' },
      'dynamodb-endpoint': { type: 'string' },
      table: { type: 'string' },
      'no-throttling': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = portOption('port', values.port) ?? 3000;
  const platformPort = portOption('platform-port', values['platform-port']);
  const twin = await startTwin({
    config: values.config ?? DEMO_CONFIG,
    port,
    ...(platformPort !== undefined ? { platformPort } : {}),
    ...(values.persist ? { persistDir: values.persist } : {}),
    ...(values['dynamodb-endpoint'] ? { dynamodbEndpoint: values['dynamodb-endpoint'] } : {}),
    ...(values.table ? { tableName: values.table } : {}),
    ...(values['no-throttling'] ? { throttling: false } : {}),
  });

  console.log(`Loyalty API listening on ${twin.url}`);
  console.log(`API reference: ${twin.url}/docs (OpenAPI document: ${twin.url}/openapi.json)`);
  console.log(`Platform simulator on ${twin.platformUrl} (PUT /_faults, GET /_discount_codes)`);
  console.log(`DynamoDB: ${twin.dynamodbEndpoint}, table ${twin.tableName}`);
  for (const shop of twin.shops) {
    console.log(`Shop ${shop.shopId}: ${shop.membersImported} members imported, ${shop.membersKept} kept`);
    for (const key of shop.keys) {
      console.log(`  key ${key.key}  (${key.name}, ${key.scope}${key.revoked ? ', revoked' : ''})`);
    }
  }
  console.log('Press Ctrl-C to stop.');

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping`);
    twin.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(error.message);
  else console.error(error instanceof Error ? error.message : error);
  console.error(USAGE);
  process.exit(1);
});
