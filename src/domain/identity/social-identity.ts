/**
 * Rules of social identity sign-in that do not depend on storage or on the token library:
 * what a valid fid is, the lifetimes of what sign-in issues, and the address a social-only
 * account is given.
 */

/** Spec Limits: a social session token lives a day; refresh answers `expiresIn: 86400`. */
export const SOCIAL_SESSION_TTL_SECONDS = 86_400;
/** A refresh token is good for 30 days from its issue; each refresh issues a new one. */
export const SOCIAL_REFRESH_TTL_MS = 30 * 24 * 3600 * 1000;

/**
 * The fid a token's `sub` names: a positive integer in canonical decimal form (no sign, no
 * leading zero, no exponent) that a JavaScript number holds exactly; anything else is null.
 */
export function parseFid(subject: unknown): number | null {
  if (typeof subject !== 'string' || !/^[1-9][0-9]{0,15}$/.test(subject)) return null;
  const fid = Number(subject);
  return Number.isSafeInteger(fid) ? fid : null;
}

/**
 * The e-mail a social-only account gets: under `.invalid` (RFC 2606), so no mail can ever reach
 * anyone through it; never verified, never used to link accounts. The user may change it in
 * settings to a real address, which is then verified as usual. `collision` names another one
 * when someone already registered the plain form.
 */
export function socialEmail(fid: number, collision?: string): string {
  return collision ? `fid-${fid}-${collision}@social.invalid` : `fid-${fid}@social.invalid`;
}

/** An EVM address as the token-gating check takes it: 0x and 40 hex digits. */
export const EVM_ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/;
