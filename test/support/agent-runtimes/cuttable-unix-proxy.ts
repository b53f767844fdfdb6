import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A unix socket forwarding to the Docker daemon's, which a test can cut (every connection through
 * it dropped at once: an attach stream breaking while the container runs) or take down (new
 * connections reset: the daemon unreachable) and bring back: what the real daemon does not do on
 * demand, while everything that does get through is the real engine's.
 */
export async function startCuttableUnixProxy(target: string) {
  const dir = mkdtempSync(join(tmpdir(), 'docker-proxy-'));
  const socketPath = join(dir, 'proxy.sock');
  const sockets = new Set<net.Socket>();
  let down = false;
  const server = net.createServer((client) => {
    if (down) return void client.destroy();
    const upstream = net.connect(target);
    for (const sock of [client, upstream]) {
      sockets.add(sock);
      sock.on('close', () => sockets.delete(sock));
      sock.on('error', () => sock.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  const cut = () => {
    for (const sock of sockets) sock.destroy();
  };
  return {
    socketPath,
    /** Attach streams and calls in progress break; the next connections go through. */
    cut,
    /** From now on the daemon does not answer (connections reset), until `up`. */
    down: () => {
      down = true;
      cut();
    },
    up: () => void (down = false),
    close: async () => {
      cut();
      await new Promise((resolve) => server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
