import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CONSOLE_HEADERS } from './content-security-policy.js';

export interface WebConsoleOptions {
  /** The built console: `index.html` and `assets/` (scripts/build-web.mjs writes dist/web). */
  root: string;
  /** Told once when the console is not built, so the API still serves and the reason is in the log. */
  onMissing?: (root: string) => void;
}

/** What the HTTP API keeps for itself: its JSON 404 answers every unknown path under it. */
const isApiPath = (url: string) => url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
/** A missing hashed file is a 404, never the page (a stale tab asking for an old build's script). */
const isAssetPath = (url: string) => url.startsWith('/assets/');

/**
 * The web console, an inbound adapter beside the HTTP API: it serves the built single-page app
 * and its hashed assets, and nothing else. The app talks to the service only through the public
 * API, with the same cookies and CSRF header as any other client.
 *
 * - `/assets/*`: content-hashed files, cached for a year as immutable.
 * - any other GET outside `/api` and `/docs`: the app's index.html (the client routes it),
 *   never cached, so a new build is picked up on the next load.
 */
export async function webConsole(app: FastifyInstance, o: WebConsoleOptions): Promise<void> {
  const indexFile = join(o.root, 'index.html');
  const built = existsSync(indexFile);
  if (!built) o.onMissing?.(o.root);
  const index = built ? readFileSync(indexFile) : Buffer.from('The web console is not built: run `npm run build` (npm start builds it).\n');

  // Every console route is public: the page is the same for everyone, the API decides the rest.
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, auth: 'none' } as typeof route.config;
    const schema = (route.schema ??= {}) as { hide?: boolean };
    schema.hide = true;
  });
  app.addHook('onSend', (_req, reply, payload, done) => {
    reply.headers(CONSOLE_HEADERS);
    done(null, payload);
  });

  if (built) {
    await app.register(fastifyStatic, {
      root: join(o.root, 'assets'),
      prefix: '/assets/',
      // One route per built file, listed at start: an unknown asset is a plain 404, no disk lookup.
      wildcard: false,
      index: false,
      immutable: true,
      maxAge: '365d',
      decorateReply: false,
    });
  }

  const sendApp = (req: FastifyRequest, reply: FastifyReply) => {
    if (isApiPath(req.url) || isAssetPath(req.url)) return reply.callNotFound();
    return reply
      .status(built ? 200 : 503)
      .header('content-type', built ? 'text/html; charset=utf-8' : 'text/plain; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(index);
  };
  app.get('/', sendApp);
  app.get('/*', sendApp);
}
