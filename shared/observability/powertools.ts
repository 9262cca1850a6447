// Powertools for AWS Lambda, created once per function: structured logger, CloudWatch EMF metrics and
// X-Ray tracer. The local twin and tests turn metrics and tracing off through the environment.
//
// The Tracer is loaded only when POWERTOOLS_TRACE_ENABLED is exactly 'true' (the stack's
// `detailedTracing` switch). It brings the X-Ray SDK, which `npm run bench` measured at about 30 ms
// of every cold start and an async hook on every promise; Lambda's active tracing (function segments)
// needs none of it. Unlike Powertools' own default, unset means off.
import type { MiddlewareObj } from '@middy/core';
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Tracer } from '@aws-lambda-powertools/tracer';

const SERVICE = 'loyalty-api';

export const logger = new Logger({ serviceName: SERVICE });
export const metrics = new Metrics({ serviceName: SERVICE, namespace: process.env.POWERTOOLS_METRICS_NAMESPACE ?? 'LoyaltyApi' });

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

/** The business events operators watch on the dashboard (names shared with infra/constructs/observability.ts). */
export type BusinessMetric = 'PointsAdjusted' | 'RewardsPurchased' | 'DiscountCodeFailures' | 'PurchasesRefunded' | 'PurchasesReconciled';

/**
 * Flushes the request's business metrics as one EMF record after the handler (also on errors).
 * Unlike Powertools' logMetrics, it stays silent for requests that recorded none (most reads).
 */
export function publishMetrics<E, R>(): MiddlewareObj<E, R> {
  const flush = async () => {
    if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
  };
  return { after: flush, onError: flush };
}

export function countMetric(name: BusinessMetric, value = 1): void {
  metrics.addMetric(name, MetricUnit.Count, value);
}

/** `ada.lovelace@example.com` -> `a***@example.com`: enough to tell customers apart in a log, not to mail them. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${email[0]}***${email.slice(at)}`;
}

/** An identifier as it may appear in a log: platform ids as they are, e-mails masked. */
export function loggableIdentifier(identifier: string): string {
  return identifier.includes('@') ? maskEmail(identifier) : identifier;
}
