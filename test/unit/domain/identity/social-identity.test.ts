import { describe, expect, it } from 'vitest';
import { parseFid, socialEmail } from '../../../../src/domain/identity/social-identity.js';

describe('parseFid', () => {
  it('when the subject is a positive integer in canonical decimal, then it is the fid', () => {
    expect(parseFid('1')).toBe(1);
    expect(parseFid('12345')).toBe(12345);
    expect(parseFid(String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('when the subject is anything else, then null', () => {
    for (const sub of ['0', '-1', '+1', '01', '1.0', '1e3', ' 1', '1 ', '0x10', '', 'abc', String(Number.MAX_SAFE_INTEGER + 1), '1'.repeat(17), 5, null, undefined]) {
      expect(parseFid(sub)).toBeNull();
    }
  });
});

describe('socialEmail', () => {
  it('when there is no collision, then the plain address under .invalid; else a suffixed one', () => {
    expect(socialEmail(42)).toBe('fid-42@social.invalid');
    expect(socialEmail(42, 'ab12cd34')).toBe('fid-42-ab12cd34@social.invalid');
  });
});
