// The twin the bench measures, in its own process as `npm start` runs it: no throttling, DynamoDB
// calls counted, the shop configuration cached as deployed.
import { spawn, type ChildProcess } from 'node:child_process';
import { PROJECT_ROOT } from '../infra/local/twin';

/** The twin's table (its default), which the bench also reads directly. */
export const TWIN_TABLE = 'loyalty-local';

export interface TwinProcess {
  url: string;
  /** The platform simulator's URL (order controls). */
  platformUrl: string;
  dynamodb: string;
  process: ChildProcess;
}

/**
 * Starts the twin on a free port (with the demo configuration unless `config` names a file); resolves
 * once it prints its URLs and DynamoDB endpoint.
 */
export async function startTwinProcess(options: { config?: string } = {}): Promise<TwinProcess> {
  const config = options.config ? ['--config', options.config] : [];
  const child = spawn(process.execPath, ['--import', 'tsx', 'infra/local/main.ts', '--port', '0', '--no-throttling', ...config], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, DYNAMODB_STATS: 'true', SHOP_CONFIG_TTL_SECONDS: '300' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`twin exited (${code}): ${output}`)));
    const onData = (chunk: unknown) => {
      output += String(chunk);
      const url = /Loyalty API listening on (\S+)/.exec(output)?.[1];
      const platformUrl = /Platform simulator on (\S+)/.exec(output)?.[1];
      const dynamodb = /DynamoDB: (\S+),/.exec(output)?.[1];
      if (url && platformUrl && dynamodb) {
        // Later output (warnings under load) is drained, not kept.
        child.stdout!.off('data', onData).resume();
        resolve({ url, platformUrl, dynamodb, process: child });
      }
    };
    child.stdout!.on('data', onData);
  });
}
