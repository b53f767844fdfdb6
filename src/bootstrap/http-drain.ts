import type { FastifyInstance } from 'fastify';

/** How long a stopping server keeps serving the connections it has before it closes them. */
export const DRAIN_MS = 1_000;

/**
 * A graceful stop without the keep-alive race: closing at once destroys every connection the
 * server sees as idle, including one on which a client has just sent a request the server has not
 * read yet (a busy event loop makes that window wide), and that client sees ECONNRESET. Draining
 * first, every response says `connection: close`, so clients stop reusing their connections,
 * and requests already on the wire are still read and answered; then the server closes.
 */
export function drainBeforeClose(app: FastifyInstance): (maxMs?: number) => Promise<void> {
  let draining = false;
  app.addHook('onSend', async (_req, reply, payload) => {
    if (draining) reply.header('connection', 'close');
    return payload;
  });
  return async (maxMs = DRAIN_MS) => {
    draining = true;
    const deadline = Date.now() + maxMs;
    while (Date.now() < deadline && (await openConnections(app)) > 0) await new Promise((r) => setTimeout(r, 25));
  };
}

const openConnections = (app: FastifyInstance) =>
  new Promise<number>((resolve) => {
    if (!app.server.listening) return resolve(0);
    app.server.getConnections((err, n) => resolve(err ? 0 : n));
  });
