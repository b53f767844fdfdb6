import type { User } from '../../domain/accounts/user.js';
import type { UserId } from '../../domain/shared/ids.js';

export interface NewUser {
  email: string;
  name: string;
  /** null: an account that signs in without a password (a wallet, OAuth, a social identity) until a reset sets one. */
  passwordHash: string | null;
  /** An address the OAuth provider vouched for starts verified; otherwise it starts unverified. */
  emailVerified?: boolean;
  referralCode: string;
  referredBy: UserId | null;
  credits: number;
}

export interface ProfileChanges {
  name?: string;
  email?: string;
  notifications?: Record<string, boolean>;
}

/** The acting user's own row, inside a user unit of work (row-level security scopes it). */
export interface UserRepository {
  /** The acting user, or null when the row is gone. */
  me(): Promise<User | null>;
  passwordHash(): Promise<string | null>;
  /** Applies the changes; an e-mail change clears the verified mark. Throws EmailInUseError. */
  update(changes: ProfileChanges): Promise<User | null>;
  setPasswordHash(hash: string): Promise<void>;
  /** Locks the acting user's row until the transaction ends: rows that reference it (a payout) wait to be written until then. */
  lockForDelete(): Promise<boolean>;
  delete(): Promise<boolean>;
}

/** Cross-user access for work done before the user is known (system unit of work only). */
export interface SystemUserRepository {
  findByEmail(email: string): Promise<(User & { passwordHash: string | null }) | null>;
  findById(id: UserId): Promise<User | null>;
  findIdByReferralCode(code: string): Promise<UserId | null>;
  /** Throws EmailInUseError when the e-mail is taken (also under a concurrent insert). */
  insert(user: NewUser): Promise<User>;
  addCredits(id: UserId, credits: number): Promise<void>;
  markEmailVerified(id: UserId, email: string): Promise<boolean>;
  setPasswordHash(id: UserId, hash: string): Promise<void>;
}
