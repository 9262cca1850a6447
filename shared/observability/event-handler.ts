// The observability every Lambda function starts with, built in one place and in one order: the X-Ray
// handler subsegment when detailed tracing is on (./tracing.ts), the logger with the invocation's context
// (its appended keys cleared per invocation), and the invocation's business metrics flushed after it, also
// when it fails. The event (non-HTTP) functions are this chain around their own work; the endpoints'
// chain (shared/http/handler.ts) starts with it and adds the HTTP middlewares.
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { Context } from 'aws-lambda';
import { logger, publishMetrics } from './powertools';
import { traceHandler } from './tracing';

/** A middy chain holding the tracer (when on), the logger and the metrics; more middlewares may follow. */
export function observedChain<E, R>(): middy.MiddyfiedHandler<E, R, Error, Context> {
  return middy<E, R, Error, Context>()
    .use(traceHandler<E, R>())
    .use(injectLambdaContext(logger, { clearState: true }))
    .use(publishMetrics<E, R>());
}

/** The Lambda handler of an event function (a queue, a stream, a schedule, a webhook): `run` inside that chain. */
export function eventHandler<E, R>(run: (event: E, context: Context) => Promise<R>): middy.MiddyfiedHandler<E, R, Error, Context> {
  return observedChain<E, R>().handler(run);
}
