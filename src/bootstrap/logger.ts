import { pino, type Logger } from 'pino';
import type { Config } from './config.js';

/** Query parameters whose values are credentials: masked wherever a URL is logged. */
const SECRET_QUERY = /([?&](?:token|key|apiKey|api_key|session|code|state|signature)=)[^&#]*/gi;
export const maskUrl = (url: string): string => url.replace(SECRET_QUERY, '$1[REDACTED]');

/**
 * pino with secrets, cookies and Authorization headers redacted, and URLs logged without the
 * values of credential-bearing query parameters (a verification link's token, say).
 */
export function createLogger(config: Pick<Config, 'LOG_LEVEL'>, destination?: NodeJS.WritableStream): Logger {
  return pino(
    {
      level: config.LOG_LEVEL,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'req.headers["x-csrf-token"]',
          'req.headers["cf-turnstile-response"]',
          'res.headers["set-cookie"]',
          'headers.authorization',
          'headers.cookie',
          '*.password',
          '*.currentPassword',
          '*.newPassword',
          '*.token',
          '*.apiKey',
          '*.key',
          '*.secret',
          '*.sessionToken',
        ],
        censor: '[REDACTED]',
      },
      serializers: {
        req: (req: { method: string; url: string; ip?: string }) => ({ method: req.method, url: maskUrl(req.url), remoteAddress: req.ip }),
        err: pino.stdSerializers.err,
      },
    },
    destination as never,
  );
}
