// One construct fixes the defaults of every Lambda: runtime, ARM_64, active tracing, a log group with
// retention, a minified ESM bundle with source maps, and least-privilege grants through bindTable.
import { join } from 'node:path';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { ITableV2, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import type { TableAccess } from '../../../shared/runtime/entry-points';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { ROUTE_TIMEOUT_SECONDS } from '../../../shared/runtime/entry-points';

export const PROJECT_ROOT = join(__dirname, '..', '..', '..');

export interface LoyaltyFunctionProps {
  /** Handler module relative to the project root (from the route manifest). */
  entry: string;
  description: string;
  environment: Record<string, string>;
  logRetention: RetentionDays;
  timeout?: Duration;
  memorySize?: number;
  /** Functions invoked asynchronously (scheduled jobs): Lambda's retries, then the event and its error to `onFailure`. */
  asyncRetries?: { retryAttempts: number; maxEventAge: Duration; onFailure: IQueue };
  /** Shell commands run after esbuild bundled the handler, given the project root and the bundle's folder. */
  afterBundling?: (inputDir: string, outputDir: string) => string[];
}

export class LoyaltyFunction extends Construct {
  readonly fn: NodejsFunction;

  constructor(scope: Construct, id: string, props: LoyaltyFunctionProps) {
    super(scope, id);
    const logGroup = new LogGroup(this, 'Logs', { retention: props.logRetention, removalPolicy: RemovalPolicy.DESTROY });
    this.fn = new NodejsFunction(this, 'Function', {
      entry: join(PROJECT_ROOT, props.entry),
      handler: 'handler',
      description: props.description,
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      tracing: Tracing.ACTIVE,
      logGroup,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(ROUTE_TIMEOUT_SECONDS),
      ...(props.asyncRetries
        ? {
            retryAttempts: props.asyncRetries.retryAttempts,
            maxEventAge: props.asyncRetries.maxEventAge,
            onFailure: new SqsDestination(props.asyncRetries.onFailure),
          }
        : {}),
      environment: { NODE_OPTIONS: '--enable-source-maps', ...props.environment },
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      bundling: {
        minify: true,
        sourceMap: true,
        format: OutputFormat.ESM,
        target: 'node22',
        mainFields: ['module', 'main'],
        // Some dependencies still call require(); ESM bundles need it defined.
        banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
        // The tracing switch is fixed at deploy time, so esbuild drops the X-Ray SDK from bundles that
        // cannot use it (shared/observability/tracing.ts); bench/bundles.ts builds the same way.
        define: { 'process.env.POWERTOOLS_TRACE_ENABLED': JSON.stringify(props.environment.POWERTOOLS_TRACE_ENABLED ?? 'false') },
        ...(props.afterBundling
          ? { commandHooks: { beforeBundling: () => [], beforeInstall: () => [], afterBundling: props.afterBundling } }
          : {}),
      },
    });
  }

  /** Read-only handlers get read-only table access; writers get read/write (never dynamodb:*); `none`, nothing. */
  bindTable(table: Table | ITableV2, access: TableAccess): this {
    if (access === 'none') return this;
    if (access === 'read') table.grantReadData(this.fn);
    else table.grantReadWriteData(this.fn);
    return this;
  }
}
