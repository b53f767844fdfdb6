import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** How long a stopping server keeps serving the connections it has before it closes them. */
export const DRAIN_MS = 1_000;

/**
 * A graceful stop without the keep-alive race: closing at once destroys every connection the
 * server sees as idle, including one on which a client has just sent a request the server has not
 * read yet (a busy event loop makes that window wide), and that client sees ECONNRESET. Draining
 * first, every response says `connection: close`, so clients stop reusing their connections,
 * and requests already on the wire are still read and answered; then the server closes.
 *
 * Closing, every connection with no request in progress is ended at once, and every other one as
 * soon as its last response is done. Node's own close leaves two kinds open until their timeouts:
 * a connection opened but never used (a keep-alive client's spare, e.g. the one undici opens after
 * a cancelled stream), and one whose response began before the drain (a stream) and goes back to
 * keep-alive when it ends.
 */
export function drainBeforeClose(app: FastifyInstance): { drain(maxMs?: number): Promise<void>; close(): Promise<void> } {
  let draining = false;
  let closing = false;
  /** Requests in progress per connection. */
  const busy = new Map<Socket, number>();
  app.server.on('connection', (socket: Socket) => {
    busy.set(socket, 0);
    socket.once('close', () => busy.delete(socket));
  });
  app.server.on('request', (req, res) => {
    const socket = req.socket;
    busy.set(socket, (busy.get(socket) ?? 0) + 1);
    res.once('close', () => {
      const left = Math.max(0, (busy.get(socket) ?? 1) - 1);
      busy.set(socket, left);
      if (closing && left === 0) socket.end();
    });
  });
  app.addHook('onSend', async (_req, reply, payload) => {
    if (draining) reply.header('connection', 'close');
    return payload;
  });
  return {
    async drain(maxMs = DRAIN_MS) {
      draining = true;
      const deadline = Date.now() + maxMs;
      while (Date.now() < deadline && (await openConnections(app)) > 0) await new Promise((r) => setTimeout(r, 25));
    },
    async close() {
      closing = true;
      const closed = app.close();
      for (const [socket, requests] of busy) if (requests === 0) socket.end();
      await closed;
    },
  };
}

const openConnections = (app: FastifyInstance) =>
  new Promise<number>((resolve) => {
    if (!app.server.listening) return resolve(0);
    app.server.getConnections((err, n) => resolve(err ? 0 : n));
  });
