import { inject, injectable } from 'tsyringe';
import { SOCIAL_REFRESH_TTL_MS, SOCIAL_SESSION_TTL_SECONDS } from '../../domain/identity/social-identity.js';
import { CredentialRevocations } from '../auth/credential-revocations.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';
import type { AccountsSystemScope } from '../ports/scopes/accounts-scope.port.js';
import { ID_GENERATOR, type IdGenerator } from '../ports/id-generator.port.js';
import { sha256 } from '../shared/secret-tokens.js';
import { RefreshTokenInvalidError } from './social-identity.errors.js';
import { isSocialRefreshToken, newSocialRefreshToken, newSocialSessionToken } from './social-tokens.js';

export interface RefreshedSocialSession {
  sessionToken: string;
  sessionId: string;
  expiresAt: Date;
  expiresIn: number;
  refreshToken: string;
}

/**
 * CONTRACT.md section 7 "social session": a refresh token buys a new session token and a new
 * refresh token, once. The previous session of the sign-in ends with it, so one sign-in holds
 * one live session. A token presented a second time means a copy exists: the whole sign-in
 * (its session and every later refresh token) ends, and the caller answers 401.
 */
@injectable()
export class RefreshSocialSession {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemWork<AccountsSystemScope, 'sessions' | 'socialSessions'>,
    @inject(CredentialRevocations) private readonly revocations: CredentialRevocations,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute(refreshToken: string): Promise<RefreshedSocialSession> {
    if (!isSocialRefreshToken(refreshToken)) throw new RefreshTokenInvalidError();
    const now = this.clock.now();
    const sessionToken = newSocialSessionToken(this.ids);
    const next = newSocialRefreshToken(this.ids);
    const expiresAt = new Date(now.getTime() + SOCIAL_SESSION_TTL_SECONDS * 1000);

    const outcome = await this.uow.asSystem(async (s) => {
      const use = await s.socialSessions.useRefreshToken(sha256(refreshToken), now);
      if (use.kind === 'invalid') return { kind: 'invalid' as const, ended: [] };
      if (use.kind === 'reused') {
        const held = await s.socialSessions.revokeFamily(use.familyId, now);
        if (held) await s.sessions.delete(held);
        return { kind: 'reused' as const, ended: held ? [held] : [] };
      }
      const session = await s.sessions.create(use.userId, sha256(sessionToken), expiresAt);
      await s.socialSessions.moveFamily(use.familyId, session.id);
      await s.sessions.delete(use.sessionId);
      await s.socialSessions.issueRefreshToken(use.familyId, sha256(next), new Date(now.getTime() + SOCIAL_REFRESH_TTL_MS));
      return { kind: 'rotated' as const, ended: [use.sessionId], sessionId: session.id };
    });

    // Committed first (a revoked family stays revoked though the answer is 401), then forgotten by every process.
    await this.revocations.sessionsEnded(outcome.ended);
    if (outcome.kind === 'reused') throw new RefreshTokenInvalidError('Refresh token already used; this sign-in has been ended');
    if (outcome.kind === 'invalid') throw new RefreshTokenInvalidError();
    return { sessionToken, sessionId: outcome.sessionId, expiresAt, expiresIn: SOCIAL_SESSION_TTL_SECONDS, refreshToken: next };
  }
}
