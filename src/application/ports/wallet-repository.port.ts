import type { Wallet } from '../../domain/wallets/wallet.js';
import type { SealedSecret } from './secret-box.port.js';

export interface NewWallet {
  userId: string;
  address: string;
  provider: string;
  providerWalletId: string | null;
  source: Wallet['source'];
  label: string | null;
  /** The private key sealed by the secret box; null when a remote provider holds it. */
  sealedKey: SealedSecret | null;
}

/** The acting user's wallet (user unit of work; RLS: their own row only). */
export interface WalletRepository {
  get(): Promise<Wallet | null>;
  /**
   * Inserts the user's one wallet. Null when the user already has one (also when a concurrent
   * create committed first): the unique key on the user decides, nothing is replaced.
   */
  insert(wallet: NewWallet): Promise<Wallet | null>;
  /** The sealed key of the user's wallet; null without a wallet or when a remote provider holds it. */
  sealedKey(): Promise<{ address: string; sealed: SealedSecret } | null>;
}
