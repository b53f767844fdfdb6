import { inject, injectable } from 'tsyringe';
import type { Actor } from '../auth/actor.js';
import type { ApiKeyRecord } from '../ports/api-key-repository.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { usageDay } from '../../domain/billing/units.js';
import type { AccountsUserScope } from '../ports/scopes/accounts-scope.port.js';

/** The caller's keys, previews only, with their limits and the units each spent today (UTC). */
@injectable()
export class ListApiKeys {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<AccountsUserScope, 'apiKeys'>,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  execute(actor: Actor): Promise<ApiKeyRecord[]> {
    return this.uow.asUser(actor.userId, (s) => s.apiKeys.list(usageDay(this.clock.now())));
  }
}
