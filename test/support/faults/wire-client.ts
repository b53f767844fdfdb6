import { randomBytes } from 'node:crypto';

/** What one request over a real socket ended as: a response, or a transport error (dropped connection). */
export interface Outcome {
  what: string;
  startedAt: number;
  endedAt: number;
  status: number | null;
  code?: string;
  body?: any;
  error?: string;
}

/** A signed-in browser against a service listening on a real port (the service runs in another process). */
export interface WireUser {
  id: string;
  email: string;
  cookie: string;
  headers: Record<string, string>;
}

export async function request(base: string, what: string, method: string, path: string, opts: { headers?: Record<string, string>; body?: unknown; timeoutMs?: number } = {}): Promise<Outcome> {
  const startedAt = Date.now();
  try {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}), ...opts.headers },
      body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
      signal: AbortSignal.timeout(opts.timeoutMs ?? 60_000),
    });
    const text = await res.text();
    let body: any = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: kept as text
    }
    return { what, startedAt, endedAt: Date.now(), status: res.status, code: body?.code, body };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    return { what, startedAt, endedAt: Date.now(), status: null, error: `${e.message} ${e.cause?.code ?? ''}`.trim() };
  }
}

export async function signUpOverWire(base: string): Promise<WireUser> {
  const email = `fault-${randomBytes(5).toString('hex')}@example.test`;
  const password = 'correct horse battery';
  const reg = await request(base, 'register', 'POST', '/api/register', { body: { email, password } });
  if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${JSON.stringify(reg.body ?? reg.error)}`);
  const res = await fetch(`${base}/api/auth/callback/credentials`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  const jar = Object.fromEntries(res.headers.getSetCookie().map((c) => c.split(';')[0]!.split('=') as [string, string]));
  const cookie = `session=${jar.session}; csrf=${jar.csrf}`;
  const id = ((await res.json()) as { user: { id: string } }).user.id;
  return { id, email, cookie, headers: { cookie, 'x-csrf-token': jar.csrf! } };
}
