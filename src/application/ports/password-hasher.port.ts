import type { InjectionToken } from 'tsyringe';

/** Slow, salted password hashing (argon2id). Costs are configuration. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** false for a mismatch or a malformed hash; never throws for either. */
  verify(hash: string, password: string): Promise<boolean>;
  /** A hash of nothing, verified against when the e-mail is unknown so both paths cost the same. */
  readonly decoy: Promise<string>;
}
export const PASSWORD_HASHER: InjectionToken<PasswordHasher> = Symbol('PasswordHasher');

/** bcrypt for API keys, as the spec requires; async, so it never blocks the event loop. */
export interface SecretHasher {
  hash(secret: string): Promise<string>;
  verify(secret: string, hash: string): Promise<boolean>;
}
export const SECRET_HASHER: InjectionToken<SecretHasher> = Symbol('SecretHasher');
