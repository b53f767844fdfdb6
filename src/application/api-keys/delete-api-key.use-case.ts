import { inject, injectable } from 'tsyringe';
import type { Actor } from '../auth/actor.js';
import { CredentialRevocations } from '../auth/credential-revocations.js';
import { NotFoundError } from '../errors.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { AccountsUserScope } from '../ports/scopes/accounts-scope.port.js';

/** Deletes a key; it stops working at once here and in other processes (NOTIFY, else within 10 s). */
@injectable()
export class DeleteApiKey {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<AccountsUserScope, 'apiKeys'>,
    @inject(CredentialRevocations) private readonly revocations: CredentialRevocations,
  ) {}

  async execute(actor: Actor, id: string): Promise<void> {
    const deleted = await this.uow.asUser(actor.userId, (s) => s.apiKeys.delete(id));
    if (!deleted) throw new NotFoundError('API key');
    await this.revocations.keysDeleted([id]);
  }
}
