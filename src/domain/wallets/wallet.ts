import { DomainError } from '../shared/domain-error.js';

/** A user's wallet as the service records it; the key, when the service holds one, is never part of it. */
export interface Wallet {
  readonly id: string;
  readonly userId: string;
  /** Lower-case 0x address. */
  readonly address: string;
  /** Who holds the key: `local` (sealed in this database) or a hosted provider's name. */
  readonly provider: string;
  readonly source: 'generated' | 'imported';
  readonly createdAt: Date;
}

/** The order of secp256k1's group: a private key is a scalar in [1, n - 1]. */
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/**
 * Whether `text` is a usable private key: 0x and 64 hex digits, and a valid secp256k1 scalar
 * (neither zero nor at or beyond the curve order, which no signer accepts).
 */
export function isPrivateKey(text: string): text is `0x${string}` {
  if (!/^0x[0-9a-fA-F]{64}$/.test(text)) return false;
  const k = BigInt(text);
  return k > 0n && k < SECP256K1_N;
}

/** A user already has a wallet (one per user; never replaced). HTTP 400. */
export class WalletExistsError extends DomainError {
  constructor() {
    super('WALLET_EXISTS', 'A wallet already exists for this account');
  }
}

/** The seed (private key) is never exported (spec: `export_seed` 403 always). */
export class SeedExportForbiddenError extends DomainError {
  constructor() {
    super('SEED_EXPORT_FORBIDDEN', 'Exporting the private key is not allowed: it never leaves the service');
  }
}

/** An imported private key that is not 32 bytes of hex or not a valid secp256k1 scalar. HTTP 400; the key is never echoed. */
export class InvalidPrivateKeyError extends DomainError {
  constructor() {
    super('INVALID_PRIVATE_KEY', 'privateKey must be 0x followed by 64 hex digits, a valid secp256k1 private key');
  }
}

/** The chain or token a wallet operation needs is not configured (BASE_RPC_URL, WALLET_TOKEN_ADDRESS). HTTP 501. */
export class WalletNotConfiguredError extends DomainError {
  constructor(what: string) {
    super('NOT_CONFIGURED', `${what} is not configured on this service`);
  }
}

/** The wallet cannot cover a payment (token or gas); nothing was sent. HTTP 400. */
export class InsufficientFundsError extends DomainError {
  constructor(details: { needed: string; available: string; asset: string }) {
    super('INSUFFICIENT_FUNDS', `The wallet holds ${details.available} ${details.asset}, ${details.needed} needed`, details);
  }
}

/**
 * An account is not deleted while its wallet holds funds: its sealed key goes with the account, and
 * the funds with it. HTTP 409; the answer says how to move them out.
 */
export class WalletNotEmptyError extends DomainError {
  constructor(held: { token: string; symbol: string; native: string }) {
    super(
      'WALLET_NOT_EMPTY',
      `Your wallet still holds ${held.token} ${held.symbol} and ${held.native} ETH: send them to an address of yours with the usdc-payments skill's send action, then delete the account`,
      held,
    );
  }
}

/** An account is not deleted while payouts it owes to others are unfinished. HTTP 409. */
export class PayoutsUnfinishedError extends DomainError {
  constructor(count: number) {
    super('PAYOUTS_UNFINISHED', `${count} payout(s) from your wallet are not finished yet; delete the account once they are confirmed or failed`, { count });
  }
}

/** A hosted-wallet route while HOSTED_WALLET_* is unset (spec: 500 with a `setup` field). */
export class HostedWalletNotConfiguredError extends DomainError {
  constructor(setup: string) {
    super('HOSTED_WALLET_NOT_CONFIGURED', 'Hosted wallet is not configured', { setup });
  }
}

/** Whole cents in a token's smallest unit (a USD stablecoin); null when the token cannot hold cents exactly. */
export function centsToTokenUnits(cents: number, decimals: number): bigint | null {
  return decimals < 2 ? null : BigInt(cents) * 10n ** BigInt(decimals - 2);
}

/** Token units as decimal text, without trailing zeros (`12500000`, 6 decimals → `"12.5"`). */
export function fromTokenUnits(units: bigint, decimals: number): string {
  const scale = 10n ** BigInt(decimals);
  const fraction = (units % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return fraction ? `${units / scale}.${fraction}` : `${units / scale}`;
}
