import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { freePort } from './free-port.js';

/**
 * Which Redis the suite's rate-limit tests share: TEST_REDIS_URL if set, else one answering at
 * 127.0.0.1:6379, else a throwaway `redis-server` this run starts on a free port (nothing kept on
 * disk). `.ci/run` installs Debian's redis-server when a machine has none, so these tests always run.
 */
export async function startRedisServer(log: (m: string) => void): Promise<{ url: string; stop: () => Promise<void> }> {
  const given = process.env.TEST_REDIS_URL;
  if (given) return { url: given, stop: async () => {} };
  if (await answers(6379)) return { url: 'redis://127.0.0.1:6379', stop: async () => {} };
  const port = await freePort();
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const failed = new Promise<never>((_, reject) => child.once('error', (err) => reject(new Error(`no Redis at 127.0.0.1:6379 and redis-server could not start (${err.message}): install redis-server`))));
  const deadline = Date.now() + 10_000;
  while (!(await Promise.race([answers(port), failed]))) {
    if (Date.now() > deadline) throw new Error('redis-server did not answer within 10 s');
    await new Promise((r) => setTimeout(r, 50));
  }
  log(`no Redis at 127.0.0.1:6379: started redis-server on port ${port}`);
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      child.kill('SIGTERM');
    },
  };
}

export function answers(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, host, () => (s.end(), resolve(true)));
    s.on('error', () => resolve(false));
    s.setTimeout(1_000, () => (s.destroy(), resolve(false)));
  });
}

/**
 * A TCP relay in front of Redis that a test can cut: the service keeps its configured address
 * while the store behind it goes away, the way a network partition looks from the client.
 */
export async function startCuttableRelay(target: URL): Promise<{ url: string; cut: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 6379), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => s.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `redis://127.0.0.1:${port}`,
    cut: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
