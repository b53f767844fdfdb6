import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AesGcmSecretBox } from '../../../src/adapters/outbound/crypto/aes-gcm-secret-box.js';
import { SecretUnreadableError } from '../../../src/application/billing/billing.errors.js';

const oldKey = randomBytes(32);
const newKey = randomBytes(32);

describe('AES-256-GCM secret box', () => {
  it('when a secret is sealed and opened with the same context, then it comes back; the ciphertext does not contain it', () => {
    const box = new AesGcmSecretBox(newKey);
    const sealed = box.seal('sk-live-provider-key-123456', 'byok:user-1:openai');
    expect(sealed.keyId).toBe(AesGcmSecretBox.keyIdOf(newKey));
    expect(sealed.ciphertext.includes(Buffer.from('provider-key'))).toBe(false);
    expect(box.open(sealed, 'byok:user-1:openai')).toBe('sk-live-provider-key-123456');
  });

  it('when the same secret is sealed twice, then the ciphertexts differ (fresh IV)', () => {
    const box = new AesGcmSecretBox(newKey);
    expect(box.seal('same', 'c').ciphertext.equals(box.seal('same', 'c').ciphertext)).toBe(false);
  });

  it('when the key rotates, then old secrets still open with the previous key and new ones use the current key', () => {
    const before = new AesGcmSecretBox(oldKey);
    const sealedBefore = before.seal('old secret', 'ctx');
    const after = new AesGcmSecretBox(newKey, [oldKey]);
    expect(after.open(sealedBefore, 'ctx')).toBe('old secret');
    expect(after.seal('new secret', 'ctx').keyId).toBe(after.currentKeyId);
    expect(after.currentKeyId).not.toBe(sealedBefore.keyId);
    // once the old key is dropped from configuration, its secrets are unreadable, not mis-read
    expect(() => new AesGcmSecretBox(newKey).open(sealedBefore, 'ctx')).toThrow(SecretUnreadableError);
  });

  it('when the ciphertext is altered, the context differs or the key id lies, then it refuses', () => {
    const box = new AesGcmSecretBox(newKey, [oldKey]);
    const sealed = box.seal('secret', 'byok:user-1:openai');
    const flipped = Buffer.from(sealed.ciphertext);
    flipped[flipped.length - 1]! ^= 1;
    expect(() => box.open({ ...sealed, ciphertext: flipped }, 'byok:user-1:openai')).toThrow(SecretUnreadableError);
    expect(() => box.open(sealed, 'byok:user-2:openai')).toThrow(SecretUnreadableError);
    expect(() => box.open({ ...sealed, keyId: AesGcmSecretBox.keyIdOf(oldKey) }, 'byok:user-1:openai')).toThrow(SecretUnreadableError);
    expect(() => box.open({ ...sealed, keyId: 'k1_unknown' }, 'byok:user-1:openai')).toThrow(SecretUnreadableError);
    expect(() => box.open({ ...sealed, ciphertext: Buffer.alloc(5) }, 'byok:user-1:openai')).toThrow(SecretUnreadableError);
  });

  it('when a key is not 32 bytes, then it refuses to start', () => {
    expect(() => new AesGcmSecretBox(randomBytes(16))).toThrow();
  });
});
