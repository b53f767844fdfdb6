/**
 * The console's only way to the service: the public HTTP API, same origin, with the session
 * cookie and, on every state-changing call, the CSRF header of CONTRACT.md section 4.
 */

/** An answer other than 2xx, with the API's error body `{error, code, ...}` kept whole. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    readonly body: Record<string, unknown>,
  ) {
    super(typeof body.error === 'string' ? body.error : `HTTP ${status}`);
    this.name = 'ApiError';
  }
}

/** The service could not be reached at all (offline, the server down). */
export class NetworkError extends Error {
  constructor() {
    super('The service cannot be reached');
    this.name = 'NetworkError';
  }
}

let csrfToken: Promise<string> | undefined;

/** The CSRF token is bound to the session: forget it whenever the session changes. */
export function forgetCsrfToken(): void {
  csrfToken = undefined;
}

function currentCsrfToken(): Promise<string> {
  csrfToken ??= request<{ csrfToken: string }>('GET', '/api/auth/csrf').then((r) => r.csrfToken);
  csrfToken.catch(() => forgetCsrfToken());
  return csrfToken;
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

async function request<T>(method: string, path: string, body?: unknown, retried = false): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (!SAFE.has(method)) headers['x-csrf-token'] = await currentCsrfToken();
  let res: Response;
  try {
    res = await fetch(path, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new NetworkError();
  }
  const text = await res.text();
  let parsed: unknown = undefined;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = { error: text };
    }
  }
  if (res.ok) return parsed as T;
  const errorBody = (parsed && typeof parsed === 'object' ? parsed : {}) as Record<string, unknown>;
  const code = typeof errorBody.code === 'string' ? errorBody.code : undefined;
  // The session changed under us (signed in elsewhere, expired): one fresh token, one retry.
  if (code === 'CSRF_TOKEN_MISSING' && !retried) {
    forgetCsrfToken();
    return request<T>(method, path, body, true);
  }
  throw new ApiError(res.status, code, errorBody);
}

export const api = {
  get: <T>(path: string) => request<T>('GET', path),
  post: <T>(path: string, body: unknown = {}) => request<T>('POST', path, body),
  put: <T>(path: string, body: unknown) => request<T>('PUT', path, body),
  patch: <T>(path: string, body: unknown) => request<T>('PATCH', path, body),
  delete: <T>(path: string, body?: unknown) => request<T>('DELETE', path, body),
};

/** Query strings without undefined values. */
export function withQuery(path: string, query: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) q.set(k, String(v));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}
