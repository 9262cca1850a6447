// The page's one way to the service: `{api}/admin/api/...` on the page's own origin, relative to the page's
// address (`{api}/admin`), so the same bundle works under a stage path. App Bridge (in the twin its stand-in)
// wraps `fetch` and adds `Authorization: Bearer <ID token>`; this module never sees a token.

/** An answer that is not 2XX: the status and the error envelope's first detail, said to staff as it is. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface Resource<A> {
  type: string;
  id: string;
  attributes: A;
}

export interface Document<A> {
  data: A;
  meta?: Record<string, unknown>;
}

/** The address of an admin API path (`/v1/customers`, `/overview`) beside the page's own. */
export function apiUrl(path: string, base: string = document.baseURI): string {
  return new URL(`admin/api${path}`, base).toString();
}

async function errorOf(response: Response): Promise<ApiError> {
  let detail = `${response.status} ${response.statusText}`.trim();
  try {
    const body = (await response.json()) as { errors?: Array<{ detail?: string; title?: string }> };
    const first = body.errors?.[0];
    if (first?.detail || first?.title) detail = String(first.detail ?? first.title);
  } catch {
    // Not the envelope (a proxy's page): the status line says enough.
  }
  return new ApiError(response.status, detail);
}

export async function request<T>(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  // Writes carry a fresh key: a retried click after a lost answer is applied once.
  if (method !== 'GET') headers['Idempotency-Key'] = crypto.randomUUID();
  const response = await fetch(apiUrl(path), {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  if (!response.ok) throw await errorOf(response);
  return (await response.json()) as T;
}

export const get = <T>(path: string) => request<T>('GET', path);
