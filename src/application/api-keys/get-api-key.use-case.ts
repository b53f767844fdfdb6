import { inject, injectable } from 'tsyringe';
import type { Actor } from '../auth/actor.js';
import { NotFoundError } from '../errors.js';
import type { ApiKeyRecord } from '../ports/api-key-repository.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { usageDay } from '../../domain/billing/units.js';
import type { AccountsUserScope } from '../ports/scopes/accounts-scope.port.js';

/** One of the caller's keys; another user's reads as absent (404). */
@injectable()
export class GetApiKey {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<AccountsUserScope, 'apiKeys'>,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, id: string): Promise<ApiKeyRecord> {
    const key = await this.uow.asUser(actor.userId, (s) => s.apiKeys.get(id, usageDay(this.clock.now())));
    if (!key) throw new NotFoundError('API key');
    return key;
  }
}
