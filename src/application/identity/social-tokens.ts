import type { IdGenerator } from '../ports/id-generator.port.js';

/**
 * The two secrets social sign-in hands out, both standard base64 (the spec's "base64") of a
 * fixed 15-byte label and 33 random bytes: 64 characters, no padding, 264 random bits.
 *
 * The label makes a session token recognisable in `Authorization: Bearer`, where CONTRACT.md
 * section 4 reads `sk_…` as an API key and anything else as a JWT: the label's base64 begins
 * with `c29jaWFs`, while a JWT begins with `eyJ` and always holds dots, and an API key begins
 * with `sk_`. Only hashes are stored.
 */
const SESSION_LABEL = Buffer.from('social-session:');
const REFRESH_LABEL = Buffer.from('social-refresh:');
const SESSION_PREFIX = SESSION_LABEL.toString('base64');
const REFRESH_PREFIX = REFRESH_LABEL.toString('base64');
const SHAPE = /^[A-Za-z0-9+/]{64}$/;

const token = (ids: IdGenerator, label: Buffer) => Buffer.concat([label, ids.bytes(33)]).toString('base64');

export const newSocialSessionToken = (ids: IdGenerator): string => token(ids, SESSION_LABEL);
export const newSocialRefreshToken = (ids: IdGenerator): string => token(ids, REFRESH_LABEL);

/** True for what could be a social session token: the authentication edge routes it as a session. */
export const isSocialSessionToken = (t: string): boolean => t.startsWith(SESSION_PREFIX) && SHAPE.test(t);
/** True for what could be a refresh token; anything else is refused before the database. */
export const isSocialRefreshToken = (t: string): boolean => t.startsWith(REFRESH_PREFIX) && SHAPE.test(t);
