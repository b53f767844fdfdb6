import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { SecretUnreadableError } from '../../../application/billing/billing.errors.js';
import type { SealedSecret, SecretBox } from '../../../application/ports/secret-box.port.js';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM with a random 96-bit IV per secret. Stored form: IV ‖ tag ‖ ciphertext, next to the
 * id of the key that sealed it. Key ids derive from the keys themselves (a truncated SHA-256 under
 * a label), so configuration lists keys only: ENCRYPTION_KEY seals, ENCRYPTION_KEYS_PREVIOUS only
 * open, and a key can be retired once no row carries its id.
 */
export class AesGcmSecretBox implements SecretBox {
  readonly currentKeyId: string;
  private readonly keys = new Map<string, Buffer>();

  constructor(current: Buffer, previous: readonly Buffer[] = []) {
    for (const key of [current, ...previous]) {
      if (key.length !== 32) throw new Error('AES-256-GCM keys are 32 bytes');
      this.keys.set(AesGcmSecretBox.keyIdOf(key), key);
    }
    this.currentKeyId = AesGcmSecretBox.keyIdOf(current);
  }

  /** From base64 text as configuration holds it. */
  static fromBase64(current: string, previous: readonly string[] = []): AesGcmSecretBox {
    return new AesGcmSecretBox(Buffer.from(current, 'base64'), previous.map((k) => Buffer.from(k, 'base64')));
  }

  static keyIdOf(key: Buffer): string {
    return `k1_${createHash('sha256').update('secret-box-key-id\0').update(key).digest('hex').slice(0, 16)}`;
  }

  seal(plaintext: string, context: string): SealedSecret {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.currentKeyId)!, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return { keyId: this.currentKeyId, ciphertext: Buffer.concat([iv, cipher.getAuthTag(), body]) };
  }

  open(sealed: SealedSecret, context: string): string {
    const key = this.keys.get(sealed.keyId);
    if (!key || sealed.ciphertext.length < IV_BYTES + TAG_BYTES) throw new SecretUnreadableError();
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, sealed.ciphertext.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(sealed.ciphertext.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(sealed.ciphertext.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      // GCM's tag check failed: altered bytes, another key or another context. Nothing more to say.
      throw new SecretUnreadableError();
    }
  }
}
