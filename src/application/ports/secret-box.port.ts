import type { InjectionToken } from 'tsyringe';

/** A secret as stored: the ciphertext and the id of the key that sealed it (keys rotate). */
export interface SealedSecret {
  readonly keyId: string;
  readonly ciphertext: Buffer;
}

/**
 * Authenticated encryption of small secrets at rest (users' provider keys). Pure CPU, no I/O,
 * safe to call concurrently.
 */
export interface SecretBox {
  /**
   * Seals under the current key. `context` (e.g. owner and purpose) is authenticated, not stored:
   * the same context must be given to open, so a ciphertext copied to another row is unreadable.
   */
  seal(plaintext: string, context: string): SealedSecret;
  /**
   * Opens with the key named by `keyId`, current or previous.
   * @throws SecretUnreadableError for an unknown key id, an altered ciphertext or another context.
   */
  open(sealed: SealedSecret, context: string): string;
  /** The key id new secrets are sealed with; rows under another id are due for re-sealing. */
  readonly currentKeyId: string;
}
export const SECRET_BOX: InjectionToken<SecretBox> = Symbol('SecretBox');
