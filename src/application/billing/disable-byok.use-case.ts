import { inject, injectable } from 'tsyringe';
import type { ByokProvider } from '../../domain/billing/byok.js';
import type { Actor } from '../auth/actor.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { BillingUserScope } from '../ports/scopes/billing-scope.port.js';

/** Deletes the caller's key for one provider, or all of them; idempotent. */
@injectable()
export class DisableByok {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: UserWork<BillingUserScope, 'byokKeys'>) {}

  async execute(actor: Actor, input: { provider?: ByokProvider | undefined } = {}): Promise<{ success: true; message: string }> {
    await this.uow.asUser(actor.userId, (s) => s.byokKeys.delete(input.provider));
    return { success: true, message: input.provider ? `Bring-your-own-key disabled for ${input.provider}` : 'Bring-your-own-key disabled' };
  }
}
