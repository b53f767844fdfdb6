import type { PayoutRepository, UnfinishedPayouts } from '../payout-repository.port.js';
import type { WalletRepository } from '../wallet-repository.port.js';
import type { SharedSystemScope, SharedUserScope } from './shared-scope.port.js';

/** What the wallets use cases may touch as one user. */
export interface WalletsUserScope extends SharedUserScope {
  wallets: WalletRepository;
  /** On-chain transfers as an outbox (instant-split payouts, usdc-payments sends). */
  payouts: PayoutRepository;
}

/** What they may touch as the system. */
export interface WalletsSystemScope extends SharedSystemScope {
  /** Payouts left unfinished (their job's retries spent): the sweep sends them as their owner. */
  unfinishedPayouts: UnfinishedPayouts;
}
