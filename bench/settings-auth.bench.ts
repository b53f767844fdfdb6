import { benchDatabase, buildService, freePort, load, median, startProcess, type Sample } from './support.js';

/**
 * Authenticated GET /api/settings (session cookie, API key, JWT) against a bare Fastify + pg
 * handler running the same SELECT, in the same run, as medians of interleaved rounds.
 */
export async function benchSettingsAuth(opts: { rounds: number; seconds: number; connections: number }) {
  const db = await benchDatabase();
  const [appPort, barePort] = [await freePort(), await freePort()];
  const app = await startProcess(buildService(), {
    DATABASE_URL: db.url, NODE_ENV: 'production', LOG_LEVEL: 'warn', SERVICE_ROLE: 'api',
    JWT_SECRET: 'bench-jwt-secret-bench-jwt-secret-bench', COOKIE_SECRET: 'bench-cookie-secret-bench-cookie-secret',
    ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'), RATE_LIMIT_AUTH: '100000', HOST: '127.0.0.1',
    APP_URL: `http://127.0.0.1:${appPort}`,
  }, appPort);
  try {
    const base = `http://127.0.0.1:${appPort}`;
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const email = `bench-${Date.now()}@example.test`;
    const reg = (await (await post('/api/register', { email, password: 'bench password' })).json()) as { id: string };
    const signIn = await post('/api/auth/callback/credentials', { email, password: 'bench password' });
    const cookies = signIn.headers.getSetCookie().map((c) => c.split(';')[0]!);
    const cookie = cookies.join('; ');
    const csrf = cookies.find((c) => c.startsWith('csrf='))!.slice(5);
    const key = (await (await post('/api/keys', { name: 'bench' }, { cookie, 'x-csrf-token': csrf })).json() as { key: string }).key;
    const jwt = (await (await post('/api/auth/token', {}, { authorization: `Bearer ${key}` })).json() as { token: string }).token;

    const bare = await startProcess('bench/bare-server.ts', { DATABASE_URL: db.url, BENCH_USER_ID: reg.id }, barePort);
    const paths: Record<string, { url: string; headers: Record<string, string> }> = {
      baseline: { url: `http://127.0.0.1:${barePort}/api/settings`, headers: {} },
      session: { url: `${base}/api/settings`, headers: { cookie } },
      apiKey: { url: `${base}/api/settings`, headers: { authorization: `Bearer ${key}` } },
      jwt: { url: `${base}/api/settings`, headers: { authorization: `Bearer ${jwt}` } },
    };
    try {
      for (const p of Object.values(paths)) await load(p.url, p.headers, { connections: opts.connections, seconds: 1 }); // warm-up
      const samples: Record<string, Sample[]> = { baseline: [], session: [], apiKey: [], jwt: [] };
      for (let round = 0; round < opts.rounds; round++) {
        for (const [name, p] of Object.entries(paths)) samples[name]!.push(await load(p.url, p.headers, opts));
      }
      const m = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, { rps: median(v.map((s) => s.rps)), p99: median(v.map((s) => s.p99)), errors: v.reduce((a, s) => a + s.errors, 0) }]));
      console.log(`\nGET /api/settings, ${opts.connections} connections, ${opts.rounds} interleaved rounds of ${opts.seconds}s (medians)`);
      console.log('path       req/s     p99 ms   errors  ratio');
      for (const [name, s] of Object.entries(m)) {
        const ratio = name === 'baseline' ? '' : name === 'session' ? `${(s.rps / m.baseline!.rps).toFixed(2)} of baseline` : `${(s.rps / m.session!.rps).toFixed(2)} of session`;
        console.log(`${name.padEnd(9)} ${s.rps.toFixed(0).padStart(7)} ${s.p99.toFixed(1).padStart(9)} ${String(s.errors).padStart(8)}  ${ratio}`);
      }
      console.log(`targets: session >= 0.75 of baseline; API key and JWT >= 0.85 of session`);
      return m;
    } finally {
      bare.kill('SIGTERM');
    }
  } finally {
    app.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    await db.drop();
  }
}
