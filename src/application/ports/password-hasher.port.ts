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
