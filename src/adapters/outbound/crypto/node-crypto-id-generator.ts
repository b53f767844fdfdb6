import { randomBytes, randomUUID } from 'node:crypto';
import type { IdGenerator } from '../../../application/ports/id-generator.port.js';

/** Ids and secret bytes from node:crypto's CSPRNG. */
export class NodeCryptoIdGenerator implements IdGenerator {
  uuid(): string {
    return randomUUID();
  }

  bytes(length: number): Buffer {
    return randomBytes(length);
  }
}
