import { DomainError } from '../../domain/shared/domain-error.js';

/** More sends of one user's wallet at once in this process than SendBounds allows. HTTP 429. */
export class TooManySendsError extends DomainError {
  constructor() {
    super('RATE_LIMITED', 'Too many payments from this wallet are under way; try again shortly');
  }
}

/**
 * How many payout runs this process makes at once (each mostly waits on the wallet's node, never
 * holding a database connection): `total` in flight, the rest waiting their turn in order; and per
 * user `perUser` in flight or waiting, past which a run is refused (TooManySendsError) instead of
 * queued: one user's flood neither grows the queue nor holds everyone else's turn.
 */
export class SendBounds {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly perUser = new Map<string, number>();

  constructor(private readonly limits: { perUser: number; total: number }) {}

  async run<T>(userId: string, work: () => Promise<T>): Promise<T> {
    const mine = this.perUser.get(userId) ?? 0;
    if (mine >= this.limits.perUser) throw new TooManySendsError();
    this.perUser.set(userId, mine + 1);
    try {
      if (this.running < this.limits.total) this.running++;
      // the finishing run hands its place on: `running` counts this one already
      else await new Promise<void>((resolve) => this.waiting.push(resolve));
      try {
        return await work();
      } finally {
        const next = this.waiting.shift();
        if (next) next();
        else this.running--;
      }
    } finally {
      const left = (this.perUser.get(userId) ?? 1) - 1;
      if (left > 0) this.perUser.set(userId, left);
      else this.perUser.delete(userId);
    }
  }
}
