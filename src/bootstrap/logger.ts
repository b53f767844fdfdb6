import { createRequire } from 'node:module';
import { pino, type Logger } from 'pino';
import type { Config } from './config.js';

export type LogFormat = 'pretty' | 'json';

/**
 * Pretty lines for a person (NODE_ENV=development with stdout on a terminal); JSON for everything
 * else: production, tests, and any output read by a program (a pipe, a file, a log collector).
 */
export function chooseLogFormat(opts: { nodeEnv: Config['NODE_ENV']; stdoutIsTTY: boolean }): LogFormat {
  return opts.nodeEnv === 'development' && opts.stdoutIsTTY ? 'pretty' : 'json';
}

/**
 * pino-pretty's stream, written synchronously so nothing is lost at process.exit, or undefined
 * when it is not installed (it is a development dependency: `npm ci --omit=dev` leaves it out).
 */
function prettyStream(): NodeJS.WritableStream | undefined {
  try {
    const pretty = createRequire(import.meta.url)('pino-pretty') as (o: object) => NodeJS.WritableStream;
    return pretty({ colorize: true, sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
  } catch {
    return undefined;
  }
}

/** Query parameters whose values are credentials: masked wherever a URL is logged. */
const SECRET_QUERY = /([?&](?:token|key|apiKey|api_key|session|code|state|signature)=)[^&#]*/gi;
export const maskUrl = (url: string): string => url.replace(SECRET_QUERY, '$1[REDACTED]');

/**
 * pino (JSON, or pretty lines when `format` says so and no destination is given) with secrets, cookies and Authorization headers redacted, and URLs logged without the
 * values of credential-bearing query parameters (a verification link's token, say).
 */
export function createLogger(config: Pick<Config, 'LOG_LEVEL'>, destination?: NodeJS.WritableStream, format: LogFormat = 'json'): Logger {
  const pretty = format === 'pretty' && !destination ? prettyStream() : undefined;
  const logger = pino(
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
          // an x402 payment is a bearer credential until the service first settles it
          'req.headers["payment-signature"]',
          'req.headers["x-payment"]',
          'headers["payment-signature"]',
          'headers["x-payment"]',
          '*.password',
          '*.currentPassword',
          '*.newPassword',
          '*.token',
          '*.apiKey',
          '*.key',
          '*.secret',
          '*.sessionToken',
          // social sign-in: the identity token and the refresh token
          '*.fidToken',
          '*.refreshToken',
          // POST /api/provision: channel tokens and the live stream's key
          '*.channelTokenA',
          '*.channelTokenB',
          '*.channelTokenC',
          '*.streamKey',
          // POST /api/agent set_credential: the credential's value
          '*.value',
          'body.value',
          // wallets: an imported private key, and a sealed key should one ever reach a log line
          '*.privateKey',
          'body.privateKey',
          '*.sealedKey',
          '*.sealed_key',
        ],
        censor: '[REDACTED]',
      },
      serializers: {
        req: (req: { method: string; url: string; ip?: string }) => ({ method: req.method, url: maskUrl(req.url), remoteAddress: req.ip }),
        err: pino.stdSerializers.err,
      },
    },
    (pretty ?? destination) as never,
  );
  if (format === 'pretty' && !pretty && !destination) logger.warn('pino-pretty is not installed: logging JSON');
  return logger;
}
