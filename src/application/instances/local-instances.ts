import { injectable } from 'tsyringe';
import type { UserId } from '../../domain/shared/ids.js';

/**
 * This worker's view of the instances it runs: one queue per user, so a lifecycle command, the
 * provision job, a crash report and the heartbeat never act on one instance at the same time,
 * and the set of users whose runtime this worker started (to stop those whose lease it lost).
 */
@injectable()
export class LocalInstances {
  private readonly tails = new Map<UserId, Promise<unknown>>();
  private readonly started = new Set<UserId>();

  /** Runs `work` after every earlier piece of work for the same user has settled. */
  serially<T>(userId: UserId, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(userId) ?? Promise.resolve();
    const next = previous.then(work, work);
    const tail = next.catch(() => {});
    this.tails.set(userId, tail);
    void tail.then(() => {
      if (this.tails.get(userId) === tail) this.tails.delete(userId);
    });
    return next;
  }

  markStarted(userId: UserId): void {
    this.started.add(userId);
  }

  markStopped(userId: UserId): void {
    this.started.delete(userId);
  }

  all(): UserId[] {
    return [...this.started];
  }
}
