import type { InjectionToken } from 'tsyringe';

/** bcrypt for API keys, as the spec requires; async, so it never blocks the event loop. */
export interface SecretHasher {
  hash(secret: string): Promise<string>;
  verify(secret: string, hash: string): Promise<boolean>;
}
export const SECRET_HASHER: InjectionToken<SecretHasher> = Symbol('SecretHasher');
