// Request headers as API Gateway hands them over: the caller's spelling kept, so lookups ignore case.

/** Case-insensitive header lookup (API Gateway keeps the caller's spelling). */
export function headerValue(headers: Record<string, string | undefined> | null | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === wanted) return value;
  return undefined;
}
