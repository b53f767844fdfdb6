import { inject, injectable } from 'tsyringe';
import type { ByokProvider } from '../../domain/billing/byok.js';
import type { Actor } from '../auth/actor.js';
import { SECRET_BOX, type SecretBox } from '../ports/secret-box.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { BillingUserScope } from '../ports/scopes/billing-scope.port.js';
import { byokContext } from './byok-context.js';

/**
 * Stores the caller's own key for one AI provider, sealed with AES-256-GCM (replacing an earlier
 * one). The key is never returned, logged or stored in clear.
 */
@injectable()
export class EnableByok {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<BillingUserScope, 'byokKeys'>,
    @inject(SECRET_BOX) private readonly box: SecretBox,
  ) {}

  async execute(actor: Actor, input: { provider: ByokProvider; apiKey: string }): Promise<{ success: true; message: string }> {
    const sealed = this.box.seal(input.apiKey, byokContext(actor.userId, input.provider));
    await this.uow.asUser(actor.userId, (s) => s.byokKeys.put({ provider: input.provider, sealed }));
    return { success: true, message: `Bring-your-own-key enabled for ${input.provider}` };
  }
}
