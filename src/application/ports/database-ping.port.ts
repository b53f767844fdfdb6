import type { InjectionToken } from 'tsyringe';

/** Is the database answering? Bounded by a short timeout. */
export interface DatabasePing {
  ping(): Promise<boolean>;
}
export const DATABASE_PING: InjectionToken<DatabasePing> = Symbol('DatabasePing');
