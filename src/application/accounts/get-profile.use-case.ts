import { inject, injectable } from 'tsyringe';
import { UserNotFoundError } from '../../domain/accounts/accounts.errors.js';
import type { User } from '../../domain/accounts/user.js';
import type { Actor } from '../auth/actor.js';
import { UNIT_OF_WORK, type UnitOfWork } from '../ports/unit-of-work.port.js';

export interface Profile extends User {
  /** The plan derived from the user's subscriptions; `free` until billing says otherwise. */
  plan: string;
}

@injectable()
export class GetProfile {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: UnitOfWork) {}

  async execute(actor: Actor): Promise<Profile> {
    const user = await this.uow.readAsUser(actor.userId, 'profile');
    if (!user) throw new UserNotFoundError();
    return { ...user, plan: 'free' };
  }
}
