import { DomainError } from '../../../domain/shared/domain-error.js';
import { ConcurrencyBound } from '../crypto/concurrency-bound.js';

/** More sends from one wallet at once in this process than WalletSendBounds allows. HTTP 429. */
export class TooManySendsError extends DomainError {
  constructor() {
    super('RATE_LIMITED', 'Too many payments from this wallet are under way; try again shortly');
  }
}

/**
 * How much node work this process does for wallets at once (each piece mostly waits on the node,
 * never holding a database connection): `total` pieces in flight, the rest waiting their turn in
 * order; and per wallet `perWallet` in flight or waiting, past which a send is refused
 * (TooManySendsError) instead of queued: one user's flood neither grows the queue nor holds
 * everyone else's turn (one wallet per user, so per wallet is per user).
 */
export class WalletSendBounds {
  private readonly all: ConcurrencyBound;
  private readonly perAddress = new Map<string, number>();

  constructor(private readonly limits: { perWallet: number; total: number }) {
    this.all = new ConcurrencyBound(limits.total);
  }

  /** A send from `address`: refused past the wallet's bound, else in its turn among all. */
  async send<T>(address: string, work: () => Promise<T>): Promise<T> {
    const mine = this.perAddress.get(address) ?? 0;
    if (mine >= this.limits.perWallet) throw new TooManySendsError();
    this.perAddress.set(address, mine + 1);
    try {
      return await this.all.run(work);
    } finally {
      const left = (this.perAddress.get(address) ?? 1) - 1;
      if (left > 0) this.perAddress.set(address, left);
      else this.perAddress.delete(address);
    }
  }

  /** A check of what was sent: never refused (it pays nothing), in its turn among all. */
  check<T>(work: () => Promise<T>): Promise<T> {
    return this.all.run(work);
  }
}
