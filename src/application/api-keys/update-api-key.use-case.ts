import { inject, injectable } from 'tsyringe';
import type { ApiKeyLimits } from '../../domain/accounts/api-key-limits.js';
import { usageDay } from '../../domain/billing/units.js';
import type { Actor } from '../auth/actor.js';
import { CredentialRevocations } from '../auth/credential-revocations.js';
import { NotFoundError } from '../errors.js';
import type { ApiKeyRecord } from '../ports/api-key-repository.port.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { AccountsUserScope } from '../ports/scopes/accounts-scope.port.js';
import { assertKeyLimitsValid } from './api-key-limits-input.js';

/**
 * Changes a key's limits (null clears one); another user's key reads as absent (404). The new
 * limits hold at once in this process and in the others as soon as the revocation bus tells them
 * (within the credential cache's 10 s otherwise), as a deletion does.
 */
@injectable()
export class UpdateApiKey {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<AccountsUserScope, 'apiKeys'>,
    @inject(CredentialRevocations) private readonly revocations: CredentialRevocations,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, id: string, change: Partial<ApiKeyLimits>): Promise<ApiKeyRecord> {
    const now = this.clock.now();
    assertKeyLimitsValid(change, now);
    const key = await this.uow.asUser(actor.userId, (s) => s.apiKeys.update(id, change, usageDay(now)));
    if (!key) throw new NotFoundError('API key');
    await this.revocations.keysChanged([id]);
    return key;
  }
}
