import type { CredentialLookup, LiveApiKey, LiveSession } from '../../src/application/ports/credential-lookup.port.js';
import type { SecretHasher } from '../../src/application/ports/secret-hasher.port.js';

/** The credential rows "in the database", shared by several authenticators as by several processes. */
export class InMemoryCredentialLookup implements CredentialLookup {
  readonly sessions = new Map<string, LiveSession & { tokenHashHex: string }>();
  readonly keys = new Map<string, LiveApiKey & { lookupId: string }>();
  lookups = 0;
  touches: { id: string; at: Date }[] = [];

  async sessionByTokenHash(tokenHash: Buffer) {
    this.lookups++;
    return [...this.sessions.values()].find((s) => s.tokenHashHex === tokenHash.toString('hex')) ?? null;
  }
  async sessionById(id: string) {
    this.lookups++;
    return this.sessions.get(id) ?? null;
  }
  async apiKeyByLookupId(lookupId: string) {
    this.lookups++;
    return [...this.keys.values()].find((k) => k.lookupId === lookupId) ?? null;
  }
  async apiKeyById(id: string) {
    this.lookups++;
    return this.keys.get(id) ?? null;
  }
  async touchApiKey(id: string, at: Date) {
    this.touches.push({ id, at });
  }
}

/** Counts how often the slow hash runs; "hash" is reversible here on purpose, this is a port fake. */
export class CountingSecretHasher implements SecretHasher {
  verifications = 0;
  async hash(secret: string) {
    return `h:${secret}`;
  }
  async verify(secret: string, hash: string) {
    this.verifications++;
    await new Promise((r) => setTimeout(r, 5));
    return hash === `h:${secret}`;
  }
}
