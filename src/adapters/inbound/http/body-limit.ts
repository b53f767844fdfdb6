/** The largest request body the service reads (Fastify's `bodyLimit`; a route may allow more). */
export const BODY_LIMIT_BYTES = 1024 * 1024;
