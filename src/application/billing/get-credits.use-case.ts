import { inject, injectable } from 'tsyringe';
import { UserNotFoundError } from '../../domain/accounts/accounts.errors.js';
import { creditPackList, type CreditPack } from '../../domain/billing/credit-packs.js';
import type { Actor } from '../auth/actor.js';
import { UNIT_OF_WORK, type HotRead } from '../ports/unit-of-work.port.js';

/** GET /api/credits: the caller's balance and the packs on sale (CONTRACT.md section 7). */
@injectable()
export class GetCredits {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: HotRead<'profile'>) {}

  async execute(actor: Actor): Promise<{ credits: number; packs: { pack: CreditPack; credits: number; price: number }[] }> {
    const me = await this.uow.readAsUser(actor.userId, 'profile');
    if (!me) throw new UserNotFoundError();
    return { credits: me.credits, packs: creditPackList() };
  }
}
