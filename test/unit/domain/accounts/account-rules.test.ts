import { describe, expect, it } from 'vitest';
import { grantsListedRights, isListedEmail, normalizeEmail, normalizeReferralCode, REFERRAL_CODE_PATTERN, referralCodeFrom, roleFor } from '../../../../src/domain/accounts/account-rules.js';

describe('account rules', () => {
  it('e-mails are trimmed and compared case-insensitively', () => {
    expect(normalizeEmail('  Ada@Example.COM ')).toBe('ada@example.com');
    expect(isListedEmail('ADA@example.com', ['ada@example.com'])).toBe(true);
  });

  it('admin is whoever is listed with the address verified, nobody else', () => {
    expect(roleFor('Boss@X.test', true, ['boss@x.test'])).toBe('admin');
    expect(roleFor('Boss@X.test', false, ['boss@x.test'])).toBe('user');
    expect(roleFor('other@x.test', true, ['boss@x.test'])).toBe('user');
    expect(roleFor('boss@x.test', true, [])).toBe('user');
  });

  it('a listed address grants its rights only once verified', () => {
    expect(grantsListedRights('T@x.test', true, ['t@x.test'])).toBe(true);
    expect(grantsListedRights('t@x.test', false, ['t@x.test'])).toBe(false);
    expect(grantsListedRights('u@x.test', true, ['t@x.test'])).toBe(false);
  });

  it('referral codes: letters, digits, hyphens, at most 20; normalised to upper case', () => {
    for (const ok of ['abc', 'A-1-b', 'x'.repeat(20)]) expect(REFERRAL_CODE_PATTERN.test(ok)).toBe(true);
    for (const bad of ['', 'a b', 'a_b', 'x'.repeat(21), 'ü']) expect(REFERRAL_CODE_PATTERN.test(bad)).toBe(false);
    expect(normalizeReferralCode(' ab-c ')).toBe('AB-C');
  });

  it('generated codes are 10 unambiguous characters that pass the pattern', () => {
    const code = referralCodeFrom(Uint8Array.from({ length: 10 }, (_, i) => i * 29));
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{10}$/);
    expect(REFERRAL_CODE_PATTERN.test(code)).toBe(true);
  });
});
