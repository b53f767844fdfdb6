import { inject, injectable } from 'tsyringe';
import { InvalidTokenError } from '../../domain/accounts/accounts.errors.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { UNIT_OF_WORK, type UnitOfWork } from '../ports/unit-of-work.port.js';
import { sha256 } from '../shared/secret-tokens.js';

/** Follows a verification link: single use, and only for the address it was sent to. */
@injectable()
export class VerifyEmail {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UnitOfWork,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(token: string): Promise<void> {
    await this.uow.asSystem(async (s) => {
      const used = await s.emailVerifications.consume(sha256(token), this.clock.now());
      if (!used || !(await s.users.markEmailVerified(used.userId, used.email))) throw new InvalidTokenError();
      await s.outbox.add('user.updated', used.userId, { id: used.userId, emailVerified: true });
    });
  }
}
