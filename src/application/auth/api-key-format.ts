import type { IdGenerator } from '../ports/id-generator.port.js';

/**
 * API keys read `sk_<lookup>_<secret>`. The lookup part is not secret: it finds the key's row in
 * one indexed read, so no request ever scans bcrypt hashes. Only the secret part is guessed at.
 */
const KEY_PATTERN = /^sk_([a-z0-9]{16})_([A-Za-z0-9_-]{43})$/;
const LOOKUP_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

export function newApiKey(ids: IdGenerator): { key: string; lookupId: string; preview: string } {
  const bytes = ids.bytes(16);
  let lookupId = '';
  for (const b of bytes) lookupId += LOOKUP_ALPHABET[b % LOOKUP_ALPHABET.length];
  const key = `sk_${lookupId}_${ids.bytes(32).toString('base64url')}`;
  return { key, lookupId, preview: `${key.slice(0, 10)}…${key.slice(-4)}` };
}

/** The lookup id of a well-formed key, or null. */
export const parseApiKey = (key: string): string | null => KEY_PATTERN.exec(key)?.[1] ?? null;
