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

describe('SERVICE_ROLE=worker', () => {
  it('runs the job handlers without serving HTTP, and stops cleanly on SIGTERM', async () => {
    const db = await createTestDatabase();
    const port = await freePort();
    const child = fork('src/bootstrap/main.ts', [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      env: {
        ...process.env, NODE_ENV: 'test', SERVICE_ROLE: 'worker', DATABASE_URL: db.url, PORT: String(port), LOG_LEVEL: 'info',
        JWT_SECRET: 'worker-test-secret-worker-test-secret-xx', COOKIE_SECRET: 'worker-test-cookie-secret-worker-test-x',
        ENCRYPTION_KEY: Buffer.alloc(32, 5).toString('base64'),
      },
    });
    let output = '';
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    for (let i = 0; i < 150 && !output.includes('"msg":"service started"'); i++) await new Promise((r) => setTimeout(r, 100));
    expect(output).toContain('"role":"worker"');
    await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 60_000);
});
