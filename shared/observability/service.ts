/** The service name on every log line, metric and trace. */
export const SERVICE = 'loyalty-api';

/**
 * Counted once per API request answered 5XX (a failure of ours, never a refusal of the caller's request),
 * with the route's manifest name as its only other dimension: what the routes' error alarms count.
 */
export const SERVER_ERRORS_METRIC = 'ServerErrors';
/** The dimension of SERVER_ERRORS_METRIC naming the route (its `name` in shared/runtime/entry-points.ts). */
export const ROUTE_DIMENSION = 'Route';
