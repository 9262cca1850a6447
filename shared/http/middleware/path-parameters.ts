// Path parameters arrive as the caller sent them, percent-encoding kept (API Gateway's REST API decodes neither
// `path` nor `pathParameters`): an e-mail's `@` as `%40` or as `@`, a `+` as `+` or `%2B`. They are decoded
// here exactly once, so `%2540` is the text `%40`, and `%2F` is a `/` inside the value (routing has happened).
import { echoed } from '../../domain/errors';
import { badRequest } from '../errors';

/** The value decoded once; a `%` that starts no valid escape is the caller's error (400), never a 500. */
export function decodePathParameter(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw badRequest(`The path segment '${echoed(value)}' is not valid percent-encoding`);
  }
}

/** For log lines only: decoded when it decodes, as it came otherwise (the request is refused by the endpoint). */
export function loggablePathParameter(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
