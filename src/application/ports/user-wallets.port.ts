import type { InjectionToken } from 'tsyringe';
import type { UserId } from '../../domain/shared/ids.js';

// An outside service a skill needs (docs/decisions/0082-outside-service-skills.md). Until a vendor
// adapter replaces it, the default one throws SkillNotConfiguredError (HTTP 501 NOT_CONFIGURED),
// never an invented answer; a vendor failure is UpstreamUnavailableError (502); `signal` aborts.

/** A user's USDC wallet (usdc-payments). Amounts are decimal text, never floats. */
export interface UserWallets {
  balance(userId: UserId, signal?: AbortSignal): Promise<{ address: string; balance: string; network: string }>;
  /** At most one transfer per idempotency key (given, or derived from `to` and `amount`). */
  send(userId: UserId, payment: { to: string; amount: string; idempotencyKey?: string | undefined }, signal?: AbortSignal): Promise<{ transactionHash: string | null; status: string }>;
  /** A payment made by `send`, by its id or its idempotency key; 404 when there is none. */
  payment(userId: UserId, ref: { paymentId?: string | undefined; idempotencyKey?: string | undefined }): Promise<Record<string, unknown>>;
}

export const USER_WALLETS: InjectionToken<UserWallets> = Symbol('UserWallets');
