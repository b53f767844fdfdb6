import { inject, injectable } from 'tsyringe';
import { sessionIdOf, type Actor } from '../auth/actor.js';
import { CredentialRevocations } from '../auth/credential-revocations.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { AccountsUserScope } from '../ports/scopes/accounts-scope.port.js';

/** Ends the caller's session; a JWT issued from it stops working with it. */
@injectable()
export class SignOut {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<AccountsUserScope, 'sessions'>,
    @inject(CredentialRevocations) private readonly revocations: CredentialRevocations,
  ) {}

  async execute(actor: Actor): Promise<void> {
    const sessionId = sessionIdOf(actor.credential);
    if (!sessionId) return;
    await this.uow.asUser(actor.userId, (s) => s.sessions.delete(sessionId));
    await this.revocations.sessionsEnded([sessionId]);
  }
}

