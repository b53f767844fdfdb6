import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { authModeOf, type AuthMode } from './authentication.js';

/** One route the server answers, as registered. */
export interface RouteEntry {
  readonly method: string;
  readonly url: string;
  /** `config.auth` as the route wrote it; `undefined` means it took the default. */
  readonly declaredAuth: AuthMode | undefined;
  /** The mode in force: `required` unless the route declared otherwise. */
  readonly auth: AuthMode;
  /** The route's validation schemas as registered (zod, through fastify-type-provider-zod), for checks over every route's input. */
  readonly schema: RouteSchemas;
}

export interface RouteSchemas {
  readonly body?: unknown;
  readonly querystring?: unknown;
  readonly params?: unknown;
  readonly headers?: unknown;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered so far (HEAD twins of GET routes left out: they share its options). */
    routeInventory(): readonly RouteEntry[];
  }
}

/**
 * Records each route as it is registered, in whatever scope, so the edge can be checked as a
 * whole: which routes are public, and that every route passes the edge's own guards.
 * Registered before any route.
 */
export const routeInventory = fp(
  async (app: FastifyInstance) => {
    // The route's options are kept and read when asked: a plugin's own onRoute hook runs after this
    // one and may still set `config.auth` (the web console marks the routes of @fastify/static so).
    // The URL as registered now (fastify rewrites the options' url later); the rest read when asked.
    const routes: { method: string; url: string; route: { config?: { auth?: AuthMode }; schema?: unknown } }[] = [];
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push({ method, url: route.url, route: route as never });
    });
    app.decorate('routeInventory', () =>
      routes.map(({ method, url, route }): RouteEntry => {
        const { body, querystring, params, headers } = (route.schema ?? {}) as RouteSchemas;
        return { method, url, declaredAuth: route.config?.auth, auth: authModeOf(route.config), schema: { body, querystring, params, headers } };
      }),
    );
  },
  { name: 'route-inventory' },
);
