// Errors of the HTTP edge (authentication, parsing, idempotency) and the one place the spec's error
// envelope is produced, including from the domain's errors.
import { DomainError, type DomainErrorKind } from '../domain/errors';

export interface ErrorObject {
  status: string;
  title: string;
  detail: string;
}

export interface ErrorEnvelope {
  errors: ErrorObject[];
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** An error whose status, title and detail may be shown to the caller as they are. */
export class ApiError extends Error {
  readonly statusCode: number;
  readonly title: string;
  readonly detail: string;
  readonly expose = true;
  /** Headers the answer carries besides the JSON ones (e.g. the staff routes' retry header). */
  readonly headers: Readonly<Record<string, string>>;

  constructor(statusCode: number, detail: string, title?: string, headers: Readonly<Record<string, string>> = {}) {
    super(detail);
    this.name = 'ApiError';
    this.statusCode = statusCode;
    this.title = title ?? TITLES[statusCode] ?? 'Error';
    this.detail = detail;
    this.headers = headers;
  }

  toEnvelope(): ErrorEnvelope {
    return envelope(this.statusCode, this.detail, this.title);
  }
}

export const badRequest = (detail: string): ApiError => new ApiError(400, detail);
export const unauthorized = (detail: string): ApiError => new ApiError(401, detail);
export const forbidden = (detail: string): ApiError => new ApiError(403, detail);
export const unsupportedMediaType = (detail: string): ApiError => new ApiError(415, detail);

export const DETAILS = {
  missingAuthorization: 'Missing Authorization header',
  invalidKey: 'Invalid or revoked API key',
  // The spec's header carries the bare key; a value in OAuth's `Bearer <token>` form is told so. No double
  // quote: the stack's gateway response puts this text into its JSON template as it is.
  bearerPrefix: "Invalid API key: send the bare key in the Authorization header, without the 'Bearer ' prefix",
  // A Shopify token (an admin ID token, a customer session token) sent to a keyed route: it authorizes its own routes only.
  tokenNotKey: 'Invalid API key: a Shopify token authorizes /admin/api (ID token) or /shopper (session token) only; /v1 takes an API key',
  // Two keys in one request are ambiguous (API Gateway passes on the last): refused whatever each one is.
  ambiguousAuthorization: 'Send exactly one Authorization header: this request carries more than one',
  readOnlyKey: 'This API key is read-only and cannot perform write operations',
  rateLimited: 'Rate limit exceeded',
  unexpected: 'An unexpected error occurred',
  invalidJson: 'Request body is not valid JSON',
  // The gateway's own refusals and failures (the stack's gateway responses, the twin's gateway alike).
  requestUnprocessable: 'The request could not be processed',
  requestTooLarge: 'Request body is too large',
  unsupportedMediaType: 'This method accepts application/json bodies only',
  integrationTimeout: 'The endpoint did not answer in time',
} as const;

/** The status each kind of domain error answers with. */
export const DOMAIN_STATUS: Record<DomainErrorKind, number> = {
  invalid: 400,
  not_permitted: 403,
  not_found: 404,
  unprocessable: 422,
  failed: 500,
  unavailable: 503,
};

export function envelope(statusCode: number, detail: string, title?: string): ErrorEnvelope {
  return { errors: [{ status: String(statusCode), title: title ?? TITLES[statusCode] ?? 'Error', detail }] };
}

/** Turns anything thrown into a status and envelope; unknown errors become a bare 500 (nothing leaks). */
export function toErrorResponse(error: unknown): { statusCode: number; body: ErrorEnvelope; headers?: Readonly<Record<string, string>> } {
  if (error instanceof ApiError) return { statusCode: error.statusCode, body: error.toEnvelope(), headers: error.headers };
  if (error instanceof DomainError) {
    const statusCode = DOMAIN_STATUS[error.kind];
    return { statusCode, body: envelope(statusCode, error.detail, error.title) };
  }
  return { statusCode: 500, body: envelope(500, DETAILS.unexpected) };
}
