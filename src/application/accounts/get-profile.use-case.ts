import { inject, injectable } from 'tsyringe';
import { UserNotFoundError } from '../../domain/accounts/accounts.errors.js';
import { profilePlan, type ProfilePlan } from '../../domain/billing/profile-plan.js';
import type { Actor } from '../auth/actor.js';
import { UNIT_OF_WORK, type HotRead, type ProfileUser } from '../ports/unit-of-work.port.js';

export interface Profile extends ProfileUser {
  /** The plan of the user's best subscribed subscription, else `free` (CONTRACT.md section 5). */
  plan: ProfilePlan;
}

@injectable()
export class GetProfile {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: HotRead<'profile'>) {}

  async execute(actor: Actor): Promise<Profile> {
    const read = await this.uow.readAsUser(actor.userId, 'profile');
    if (!read) throw new UserNotFoundError();
    const { subscriptions, ...user } = read;
    return { ...user, plan: profilePlan(subscriptions) };
  }
}
