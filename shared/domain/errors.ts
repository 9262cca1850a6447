// Errors the domain raises, by what went wrong rather than by HTTP status: the edge
// (shared/http/errors.ts) maps each kind to the spec's status and envelope. Pure: no HTTP, no AWS.

export type DomainErrorKind = 'invalid' | 'not_permitted' | 'not_found' | 'unprocessable' | 'failed' | 'unavailable';

/** A failure the caller may be told about in these words. */
export class DomainError extends Error {
  readonly kind: DomainErrorKind;
  readonly detail: string;
  /** A title of its own (the spec's 422s name the rule broken, e.g. "Insufficient Points"). */
  readonly title: string | undefined;

  constructor(kind: DomainErrorKind, detail: string, title?: string) {
    super(detail);
    this.name = 'DomainError';
    this.kind = kind;
    this.detail = detail;
    this.title = title;
  }
}

/** The request cannot be acted on as given (a missing or malformed value). */
export const invalid = (detail: string): DomainError => new DomainError('invalid', detail);
/** The customer or reward exists, but this action is not allowed for it. */
export const notPermitted = (detail: string): DomainError => new DomainError('not_permitted', detail);
export const notFound = (detail: string): DomainError => new DomainError('not_found', detail);
/** A business rule refuses the action; the title names the rule. */
export const unprocessable = (title: string, detail: string): DomainError => new DomainError('unprocessable', detail, title);
/** The action could not be completed (e.g. lost races past the retry budget); safe to retry. */
export const failed = (detail: string): DomainError => new DomainError('failed', detail);
/** A service the action depends on (the commerce platform) could not be reached. */
export const unavailable = (detail: string): DomainError => new DomainError('unavailable', detail);

/** The longest identifier a detail repeats whole; a longer one is cut there and ends with `…`. */
export const ECHOED_IDENTIFIER_MAX = 100;

/**
 * An identifier the caller sent, as a detail repeats it: a 5 000-character path segment is not sent back
 * whole (the caller has it; logs and screens get no more than this).
 */
export function echoed(identifier: string): string {
  const characters = Array.from(identifier);
  return characters.length <= ECHOED_IDENTIFIER_MAX ? identifier : `${characters.slice(0, ECHOED_IDENTIFIER_MAX).join('')}…`;
}

export const customerNotFound = (identifier: string): DomainError => notFound(`Customer '${echoed(identifier)}' not found`);

/** Details the spec fixes word for word. */
export const DOMAIN_DETAILS = {
  customerExcluded: 'Customer is excluded from the loyalty program',
  platformUnreachable: 'Unable to connect to the platform. Please try again.',
  noUpdatableFields: 'No updatable fields provided',
} as const;
