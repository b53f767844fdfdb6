import type { InjectionToken } from 'tsyringe';
import type { UserId } from '../../domain/shared/ids.js';

/**
 * Which worker process runs a user's instance (CONTRACT.md section 7 "runtime ownership"): at most
 * one live lease per instance. This port is bound to the calling worker (`workerId`). Expiry is
 * measured with the database's clock only, so workers' clocks never need to agree.
 */
export interface InstanceLeases {
  /** This worker's identity, unique per process start. */
  readonly workerId: string;
  /**
   * Atomic: takes or extends the lease when nobody holds a live one or this worker does; false,
   * changing nothing, when another worker holds a live lease. Two workers racing: one wins.
   */
  acquire(userId: UserId): Promise<boolean>;
  /** Extends every lease this worker still holds; returns the users held. Throws when the database fails. */
  renew(): Promise<UserId[]>;
  /** Gives the lease up (stop, crash, shutdown); a lease held by another worker is left alone. */
  release(userId: UserId): Promise<void>;
  /** Gives up every lease of this worker (shutdown: another worker may take over at once). */
  releaseAll(): Promise<void>;
  /**
   * Instances marked `running` whose lease is absent or expired: the ones to take over.
   * `leaseExpired`: a lease was left to expire (its worker died); false when none is left (its
   * worker gave it up on a clean stop, or it never had one).
   */
  orphans(): Promise<{ userId: UserId; leaseExpired: boolean }[]>;
}
export const INSTANCE_LEASES: InjectionToken<InstanceLeases> = Symbol('InstanceLeases');
