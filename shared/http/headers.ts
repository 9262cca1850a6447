// Request headers as API Gateway hands them over: the caller's spelling kept, so lookups ignore case.

/** Case-insensitive header lookup (API Gateway keeps the caller's spelling). */
export function headerValue(headers: Record<string, string | undefined> | null | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

/**
 * Every value a header was sent with, under any spelling of its name, from API Gateway's
 * `multiValueHeaders` (the caller's order kept): `headerValue` gives the last one only, as API Gateway does.
 */
export function headerValues(multiValueHeaders: Record<string, string[] | undefined> | null | undefined, name: string): string[] {
  if (!multiValueHeaders) return [];
  const wanted = name.toLowerCase();
  const values: string[] = [];
  for (const [key, list] of Object.entries(multiValueHeaders)) if (key.toLowerCase() === wanted && list) values.push(...list);
  return values;
}
