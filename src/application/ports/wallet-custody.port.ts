import type { InjectionToken } from 'tsyringe';
import type { Wallet } from '../../domain/wallets/wallet.js';
import type { UserId } from '../../domain/shared/ids.js';

/**
 * Where users' private keys live and who signs with them (spec "Wallets": the hosted-wallet
 * provider). The default adapter is local: keys generated with viem, sealed by the secret box in
 * the `wallets` table, signing in process. A remote provider (keys held by its API) replaces it
 * behind this port: it creates the wallet there, records the address and its wallet id through
 * the WalletRepository with no sealed key, and signs through its API (docs/decisions/0086-hosted-wallet-provider.md).
 */
export interface WalletCustody {
  /** The provider's name recorded with each wallet (`local` for the default adapter). */
  readonly provider: string;
  /**
   * Creates the user's one wallet: from `privateKey` when given (imported; already validated by
   * the caller), else a freshly generated key.
   * @throws WalletExistsError when the user already has a wallet, also under a concurrent create.
   */
  create(userId: UserId, opts: { privateKey?: `0x${string}` | undefined; label?: string | undefined }): Promise<Wallet>;
}
export const WALLET_CUSTODY: InjectionToken<WalletCustody> = Symbol('WalletCustody');
