// Powertools for AWS Lambda, created once per function: structured logger and CloudWatch EMF metrics
// (the X-Ray tracer is in ./tracing.ts). The local twin and tests turn metrics off through the environment.
import type { MiddlewareObj } from '@middy/core';
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { ROUTE_DIMENSION, SERVER_ERRORS_METRIC, SERVICE } from './service';

export const logger = new Logger({ serviceName: SERVICE });
export const metrics = new Metrics({ serviceName: SERVICE, namespace: process.env.POWERTOOLS_METRICS_NAMESPACE ?? 'LoyaltyApi' });

/** The business events operators watch on the dashboard (names shared with infra/cdk/constructs/observability.ts). */
export type BusinessMetric =
  | 'PointsAdjusted'
  | 'RewardsPurchased'
  | 'DiscountCodeFailures'
  | 'StoreCreditFailures'
  | 'StoreCreditUnaccounted'
  | 'PurchasesRefunded'
  | 'PurchasesReconciled'
  | 'PlatformAccessDenied'
  | 'PurchasesResumed'
  | 'RedemptionsRefunded'
  | 'RefundCodesRestored'
  | 'RefundCodeRestoreFailed'
  | 'ReferralsCreated'
  | 'ReferralsResumed'
  | 'KlaviyoRefused';

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

/** What a scheduled job read and changed in one run, per job (the dashboard's jobs widget). */
export function countJobMetric(job: string, name: 'JobItemsDue' | 'JobItemsChanged', value: number): void {
  const single = metrics.singleMetric();
  single.addDimension('Job', job);
  single.addMetric(name, MetricUnit.Count, value);
}

/** One API request of `route` answered 5XX: published at once, apart from the request's business metrics. */
export function countServerError(route: string): void {
  const single = metrics.singleMetric();
  single.addDimension(ROUTE_DIMENSION, route);
  single.addMetric(SERVER_ERRORS_METRIC, MetricUnit.Count, 1);
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

const EMAIL_IN_TEXT = /[^\s'"`<>()[\]{},;:@]+@[^\s'"`<>()[\]{},;:@]+/g;

/** A text (an error's detail) as it may appear in a log: every e-mail address in it masked. */
export function maskEmailsIn(text: string): string {
  return text.replace(EMAIL_IN_TEXT, (email) => maskEmail(email));
}
