import { describe, expect, it } from 'vitest';
import { decideOAuthLink, type OAuthProfile } from '../../../../src/domain/accounts/oauth.js';
import type { UserId } from '../../../../src/domain/shared/ids.js';

const A = 'a0000000-0000-4000-8000-000000000001' as UserId;
const B = 'b0000000-0000-4000-8000-000000000002' as UserId;
const profile = (p: Partial<OAuthProfile> = {}): OAuthProfile => ({ subject: 's1', email: 'ada@example.test', emailVerified: true, name: null, ...p });

describe('who an OAuth sign-in signs in as', () => {
  it('when the subject is already linked, then that account, whatever the e-mails say now', () => {
    expect(decideOAuthLink(profile({ emailVerified: false, email: 'new@example.test' }), A, { id: B, emailVerified: false })).toEqual({ kind: 'sign-in', userId: A });
  });

  it('when an account has the e-mail and both sides verified it, then the identity is linked to it', () => {
    expect(decideOAuthLink(profile(), null, { id: A, emailVerified: true })).toEqual({ kind: 'link', userId: A });
  });

  it('when either side has not verified the e-mail, then refused: never a takeover', () => {
    expect(decideOAuthLink(profile({ emailVerified: false }), null, { id: A, emailVerified: true })).toEqual({ kind: 'refuse', reason: 'provider-email-unverified' });
    expect(decideOAuthLink(profile(), null, { id: A, emailVerified: false })).toEqual({ kind: 'refuse', reason: 'account-email-unverified' });
    expect(decideOAuthLink(profile({ emailVerified: false }), null, { id: A, emailVerified: false }).kind).toBe('refuse');
  });

  it('when no account has the e-mail, then one is created, verified exactly when the provider vouched for it', () => {
    expect(decideOAuthLink(profile(), null, null)).toEqual({ kind: 'create', emailVerified: true });
    expect(decideOAuthLink(profile({ emailVerified: false }), null, null)).toEqual({ kind: 'create', emailVerified: false });
  });

  it('when the provider gives no e-mail and the subject is new, then refused', () => {
    expect(decideOAuthLink(profile({ email: null }), null, null)).toEqual({ kind: 'refuse', reason: 'no-email' });
  });
});
