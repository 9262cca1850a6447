// `npm run dynamodb -- --port 8000`: DynamoDB Local alone, in the foreground (Ctrl-C stops it), for
// `npm start -- --dynamodb-endpoint` or the operator CLI; the same Java and watchdog as the twin's.
import { parseArgs } from 'node:util';
import { assertPortsAvailable } from './port-check';
import { startDynamoDbLocal } from './dynamodb-local';

const USAGE = 'Usage: npm run dynamodb -- [--port N (default 8000)] [--persist DIR]';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { port: { type: 'string' }, persist: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = Number(values.port ?? 8000);
  if (!/^\d+$/.test(values.port ?? '8000') || port < 1 || port > 65535)
    throw new Error(`--port must be a port number (1-65535), got '${values.port}'\n${USAGE}`);
  await assertPortsAvailable([{ port, host: '0.0.0.0', label: 'DynamoDB Local, --port' }]);
  const dynamo = await startDynamoDbLocal({
    port,
    ...(values.persist ? { persistDir: values.persist, holder: `npm run dynamodb on port ${port}` } : {}),
  });

  console.log(`DynamoDB Local listening on ${dynamo.endpoint} (${values.persist ? `data in ${values.persist}` : 'in memory'})`);
  console.log(`Use it: npm start -- --dynamodb-endpoint ${dynamo.endpoint}`);
  console.log('Press Ctrl-C to stop (or send SIGTERM).');

  // Ctrl-C reaches npm and this process at once and npm forwards it: a repeat within a second is the same request.
  let stoppingSince: number | undefined;
  const shutdown = () => {
    if (stoppingSince !== undefined) {
      if (Date.now() - stoppingSince > 1000) process.exit(1);
      return;
    }
    stoppingSince = Date.now();
    dynamo.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, shutdown);
  void dynamo.exited.then(() => {
    if (stoppingSince !== undefined) return;
    console.error('DynamoDB Local stopped by itself');
    process.exit(1);
  });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
