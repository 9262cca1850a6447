// Powertools Tracer (X-Ray), loaded only when POWERTOOLS_TRACE_ENABLED is exactly 'true' (the stack's
// `detailedTracing` switch). It brings the X-Ray SDK, which `npm run bench` measured as a real share of
// every cold start (docs/performance.md), plus an async hook on every promise; Lambda's active tracing (function segments)
// needs none of it. Unlike Powertools' own default, unset means off. The stack also compiles the
// switch into each bundle (esbuild `define`), so a function deployed without tracing does not even
// carry the SDK's code; under tsx and jest the variable is read at load.
import type { MiddlewareObj } from '@middy/core';
import type { Tracer } from '@aws-lambda-powertools/tracer';
import { SERVICE } from './service';

type TracerModule = typeof import('@aws-lambda-powertools/tracer');
type TracerMiddlewareModule = typeof import('@aws-lambda-powertools/tracer/middleware');

/* eslint-disable @typescript-eslint/no-require-imports -- a synchronous require keeps the X-Ray SDK out of
   the process unless tracing is on, and still loads it during Lambda's init phase when it is. */
function loadTracer(): Tracer | undefined {
  if (process.env.POWERTOOLS_TRACE_ENABLED !== 'true') return undefined;
  const { Tracer } = require('@aws-lambda-powertools/tracer') as TracerModule;
  return new Tracer({ serviceName: SERVICE });
}

/** The X-Ray tracer, or undefined when detailed tracing is off. */
export const tracer = loadTracer();

/** Powertools' handler subsegment (cold start annotation, errors as metadata); nothing when tracing is off. */
export function traceHandler<E, R>(): Array<MiddlewareObj<E, R>> {
  if (!tracer) return [];
  const { captureLambdaHandler } = require('@aws-lambda-powertools/tracer/middleware') as TracerMiddlewareModule;
  return [captureLambdaHandler(tracer) as MiddlewareObj<E, R>];
}
/* eslint-enable @typescript-eslint/no-require-imports */

/** An AWS SDK v3 client whose calls become X-Ray subsegments when tracing is on. */
export function traceAwsClient<T>(client: T): T {
  return tracer ? tracer.captureAWSv3Client(client) : client;
}
