import { createHash, randomBytes } from 'node:crypto';

/** Opaque bearer secrets (session tokens, mail links): 256 random bits, stored only as SHA-256. */
export const newSecretToken = (): string => randomBytes(32).toString('base64url');
export const sha256 = (value: string): Buffer => createHash('sha256').update(value).digest();
