import { createHash, hash } from 'node:crypto';
import type { IdGenerator } from '../ports/id-generator.port.js';

/** Opaque bearer secrets (session tokens, mail links): 256 random bits, stored only as SHA-256. */
export const newSecretToken = (ids: IdGenerator): string => ids.bytes(32).toString('base64url');
export const sha256 = (value: string): Buffer => createHash('sha256').update(value).digest();
/** The same SHA-256 as hex, in one call without a Hash object: about 3 µs less, for per-request cache keys. */
export const sha256Hex = (value: string): string => hash('sha256', value, 'hex');
