import type { FastifyRequest } from 'fastify';

/** A request header's text when it was sent once; undefined when absent or repeated. */
export const headerText = (req: FastifyRequest, name: string): string | undefined => {
  const v = req.headers[name];
  return typeof v === 'string' ? v : undefined;
};

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The token of `Authorization: Bearer <token>`, else undefined (another scheme, or none). */
export const bearerToken = (authorization: string | undefined): string | undefined =>
  authorization === undefined ? undefined : BEARER.exec(authorization)?.[1];
