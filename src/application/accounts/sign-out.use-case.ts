import { inject, injectable } from 'tsyringe';
import type { Actor } from '../auth/actor.js';
import { CredentialRevocations } from '../auth/credential-revocations.js';
import { UNIT_OF_WORK, type UnitOfWork } from '../ports/unit-of-work.port.js';

/** Ends the caller's session; a JWT issued from it stops working with it. */
@injectable()
export class SignOut {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UnitOfWork,
    @inject(CredentialRevocations) private readonly revocations: CredentialRevocations,
  ) {}

  async execute(actor: Actor): Promise<void> {
    const sessionId = actor.credential.kind === 'session' ? actor.credential.sessionId : sessionOfJwt(actor);
    if (!sessionId) return;
    await this.uow.asUser(actor.userId, (s) => s.sessions.delete(sessionId));
    await this.revocations.sessionsEnded([sessionId]);
  }
}

const sessionOfJwt = (actor: Actor): string | null =>
  actor.credential.kind === 'jwt' && actor.credential.sid.startsWith('s:') ? actor.credential.sid.slice(2) : null;
