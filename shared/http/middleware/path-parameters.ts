// Path parameters may arrive percent-encoded (an e-mail's `@` as `%40`): the log context and the endpoint
// decode them the same way, here.
export function decodePathParameter(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
