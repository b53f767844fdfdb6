import type { UserId } from '../../domain/shared/ids.js';

/** Nonces of wallet sign-in, stored as their sha256. System unit of work. */
export interface WalletNonceRepository {
  /** Stores a new nonce; also sweeps a bounded batch of long-expired ones (the endpoint is public). */
  issue(nonceHash: Buffer, expiresAt: Date, now: Date): Promise<void>;
  /** Atomic: true only for the one caller that marks an existing, unused, unexpired nonce used. */
  consume(nonceHash: Buffer, now: Date): Promise<boolean>;
}

/** Which account a wallet signs in to (addresses lowercase). System unit of work. */
export interface WalletIdentityRepository {
  findUserId(address: string): Promise<UserId | null>;
  /** Binds the wallet to the user; a wallet already bound keeps its user (returns that one). */
  link(address: string, userId: UserId, chainId: number): Promise<UserId>;
  touch(address: string): Promise<void>;
}
