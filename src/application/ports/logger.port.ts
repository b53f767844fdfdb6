import type { InjectionToken } from 'tsyringe';

/** The few log calls use cases make; pino satisfies it. Never pass secrets in `obj`. */
export interface Logger {
  /** What an operator needs only when looking into something (hidden at the default `info` level). */
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}
export const LOGGER: InjectionToken<Logger> = Symbol('Logger');
