import { fork } from 'node:child_process';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../support/test-database.js';

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

describe('SIGTERM', () => {
  it('stops accepting, finishes the request in flight, closes everything and exits 0', async () => {
    const db = await createTestDatabase();
    const port = await freePort();
    const child = fork('src/bootstrap/main.ts', [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      env: {
        ...process.env, NODE_ENV: 'test', DATABASE_URL: db.url, PORT: String(port), LOG_LEVEL: 'info',
        JWT_SECRET: 'shutdown-test-secret-shutdown-test-secret', COOKIE_SECRET: 'shutdown-test-cookie-secret-shutdown-xx',
        ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64'),
        // a deliberately slow password hash keeps the registration in flight while the signal arrives
        ARGON2_TIME_COST: '40', ARGON2_MEMORY_KIB: '65536',
      },
    });
    let output = '';
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 100; i++) {
      if (await fetch(`${base}/health`).then((r) => r.ok, () => false)) break;
      await new Promise((r) => setTimeout(r, 200));
    }

    const inFlight = fetch(`${base}/api/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'slow@example.test', password: 'long enough pw' }) });
    await new Promise((r) => setTimeout(r, 150));
    child.kill('SIGTERM');
    const res = await inFlight;
    expect(res.status).toBe(201);
    const code = await exited;
    if (code !== 0) console.log(output.slice(-3000));
    expect(code).toBe(0);
    expect(output).toContain('"msg":"shutting down"');
    expect(output).toContain('"msg":"stopped"');
    await expect(fetch(`${base}/health`)).rejects.toThrow();
  }, 60_000);
});
