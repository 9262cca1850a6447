// Request headers as API Gateway hands them over: the caller's spelling kept, so lookups ignore case. And
// the headers of every JSON answer of the API.

/**
 * Every API answer, success or error, handler or gateway: JSON, and never kept by a browser, proxy or CDN
 * cache, since most carry personal data (members, histories, referrals, e-mails in details).
 */
export const JSON_HEADERS: Readonly<Record<string, string>> = { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' };

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
