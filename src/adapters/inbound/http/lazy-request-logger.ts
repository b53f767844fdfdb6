import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type Parent = FastifyBaseLogger & { isLevelEnabled(level: string): boolean };

/**
 * A request's logger, whose pino child (bindings: the request id) is built only when a line is
 * written at an enabled level. Fastify builds a child for every request; on a read that logs
 * nothing (production runs at `info` with request logging off, or quieter) that child was pure
 * per-request cost. A route with its own level or serializers gets a real child at once.
 */
export function lazyChildLoggerFactory(logger: FastifyBaseLogger, bindings: Bindings, opts: ChildLoggerOptions): FastifyBaseLogger {
  if (opts.level || opts.serializers) return logger.child(bindings, opts);
  return new LazyRequestLogger(logger as Parent, bindings) as unknown as FastifyBaseLogger;
}

class LazyRequestLogger {
  private real: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: Parent,
    private readonly bindings: Bindings,
  ) {}

  get level(): string {
    return this.real?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger().level = level;
  }

  fatal(...args: unknown[]): void { this.write('fatal', args); }
  error(...args: unknown[]): void { this.write('error', args); }
  warn(...args: unknown[]): void { this.write('warn', args); }
  info(...args: unknown[]): void { this.write('info', args); }
  debug(...args: unknown[]): void { this.write('debug', args); }
  trace(...args: unknown[]): void { this.write('trace', args); }
  silent(): void {}

  child(bindings: Record<string, unknown>, opts?: object): FastifyBaseLogger {
    return this.logger().child(bindings, opts);
  }

  isLevelEnabled(level: string): boolean {
    return (this.real as Parent | undefined ?? this.parent).isLevelEnabled(level);
  }

  private write(level: Level, args: unknown[]): void {
    if (!this.isLevelEnabled(level)) return;
    (this.logger()[level] as (...a: unknown[]) => void)(...args);
  }

  private logger(): FastifyBaseLogger {
    return (this.real ??= this.parent.child(this.bindings));
  }
}
