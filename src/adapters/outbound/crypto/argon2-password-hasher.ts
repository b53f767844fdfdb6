import argon2 from 'argon2';
import type { PasswordHasher } from '../../../application/ports/password-hasher.port.js';

/** argon2id with configurable costs (low in tests, OWASP's defaults otherwise). */
export class Argon2PasswordHasher implements PasswordHasher {
  readonly decoy: Promise<string>;

  constructor(private readonly cost: { memoryKib: number; timeCost: number }) {
    this.decoy = this.hash('decoy-password-for-unknown-accounts');
  }

  hash(password: string): Promise<string> {
    return argon2.hash(password, { type: argon2.argon2id, memoryCost: this.cost.memoryKib, timeCost: this.cost.timeCost, parallelism: 1 });
  }

  async verify(hash: string, password: string): Promise<boolean> {
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false; // a malformed stored hash is a mismatch, not a server error
    }
  }
}
