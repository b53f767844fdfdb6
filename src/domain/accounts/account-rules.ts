/**
 * Account rules that do not depend on storage: e-mail normalisation, password lengths,
 * referral codes, and who is an admin.
 */

/** E-mails compare case-insensitively; stored and compared trimmed and lower-cased. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** Minimum password lengths of the spec: 8 to register or change, 6 to reset. */
export const PASSWORD_MIN_LENGTH = 8;
export const RESET_PASSWORD_MIN_LENGTH = 6;
/** argon2 is given at most this many bytes; longer input is a client mistake, not work for us. */
export const PASSWORD_MAX_LENGTH = 256;

/** Referral codes: letters, digits and hyphens, at most 20, compared case-insensitively. */
export const REFERRAL_CODE_PATTERN = /^[A-Za-z0-9-]{1,20}$/;
export const normalizeReferralCode = (code: string): string => code.trim().toUpperCase();

const REFERRAL_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** A new user's own code: 10 unambiguous characters from the given random bytes (at least 10). */
export function referralCodeFrom(random: Uint8Array): string {
  let code = '';
  for (let i = 0; i < 10; i++) code += REFERRAL_ALPHABET[random[i]! % REFERRAL_ALPHABET.length];
  return code;
}

/** Whether an address is in a configured list (ADMIN_EMAILS, TESTER_EMAILS), compared normalised. */
export const isListedEmail = (email: string, list: readonly string[]): boolean =>
  list.includes(normalizeEmail(email));

/**
 * A configured list grants its rights only to an account whose address is verified: anyone can
 * register with, or change their e-mail to, a listed address nobody has claimed yet; only its
 * owner can open the link sent to it.
 */
export const grantsListedRights = (email: string, emailVerified: boolean, list: readonly string[]): boolean =>
  emailVerified && isListedEmail(email, list);

export type Role = 'user' | 'admin';
/** Admin is decided at each request from configuration and the verified mark, never stored. */
export const roleFor = (email: string, emailVerified: boolean, adminEmails: readonly string[]): Role =>
  grantsListedRights(email, emailVerified, adminEmails) ? 'admin' : 'user';

/** Lifetimes of the credentials this area issues. */
export const SESSION_TTL_MS = 30 * 24 * 3600 * 1000;
export const JWT_TTL_SECONDS = 7 * 24 * 3600;
export const PASSWORD_RESET_TTL_MS = 3600 * 1000;
export const EMAIL_VERIFICATION_TTL_MS = 48 * 3600 * 1000;
