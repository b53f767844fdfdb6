import bcrypt from 'bcryptjs';
import type { SecretHasher } from '../../../application/ports/password-hasher.port.js';

/**
 * bcrypt for API keys (the spec names it). bcryptjs is pure JavaScript, so it needs no native
 * build; its async API yields to the event loop, and the authenticator runs it once per key
 * per process.
 */
export class BcryptSecretHasher implements SecretHasher {
  constructor(private readonly rounds: number) {}

  hash(secret: string): Promise<string> {
    return bcrypt.hash(secret, this.rounds);
  }

  async verify(secret: string, hash: string): Promise<boolean> {
    try {
      return await bcrypt.compare(secret, hash);
    } catch {
      return false;
    }
  }
}
