import { hash as nativeHash, verify as nativeVerify } from '@node-rs/bcrypt';
import type { SecretHasher } from '../../../application/ports/secret-hasher.port.js';
import { ConcurrencyBound } from './concurrency-bound.js';

/**
 * bcrypt for API keys (the spec names it), computed by a native binding on libuv's thread pool so
 * the event loop keeps serving while keys are proven. At most `maxConcurrent` run at once, so a
 * burst of first uses neither takes every pool thread (argon2, file and DNS work share them) nor
 * queues unboundedly inside the pool; the rest wait their turn in this process. The authenticator
 * still runs it once per key per process. Hashes are the usual `$2a$`/`$2b$` format, so keys
 * hashed earlier by bcryptjs verify unchanged.
 */
export class BcryptSecretHasher implements SecretHasher {
  private readonly bound: ConcurrencyBound;

  constructor(private readonly rounds: number, maxConcurrent = 2) {
    this.bound = new ConcurrencyBound(maxConcurrent);
  }

  hash(secret: string): Promise<string> {
    return this.bound.run(() => nativeHash(secret, this.rounds));
  }

  async verify(secret: string, hash: string): Promise<boolean> {
    try {
      return await this.bound.run(() => nativeVerify(secret, hash));
    } catch {
      return false;
    }
  }

  /** How many run now, and how many wait: for tests and metrics. */
  get load(): { running: number; waiting: number } {
    return { running: this.bound.running, waiting: this.bound.waiting };
  }
}
