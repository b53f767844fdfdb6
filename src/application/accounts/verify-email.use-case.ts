import { inject, injectable } from 'tsyringe';
import { InvalidTokenError } from '../../domain/accounts/accounts.errors.js';
import { CredentialRevocations } from '../auth/credential-revocations.js';
import { PaymentEffects } from '../billing/payment-effects.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';
import type { AccountsSystemScope } from '../ports/scopes/accounts-scope.port.js';
import { sha256 } from '../shared/secret-tokens.js';

/**
 * Follows a verification link: single use, and only for the address it was sent to. A verified
 * address is proof enough to receive the payments kept for it, and to hold the rights of an
 * address listed in ADMIN_EMAILS or TESTER_EMAILS: processor events that matched no
 * user by this e-mail (and the other events of their processor customers) are attached and
 * applied in the same transaction. Registration alone attaches nothing: whoever registers an
 * address first has not shown they own it.
 */
@injectable()
export class VerifyEmail {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemWork<AccountsSystemScope, 'emailVerifications' | 'outbox' | 'users' | 'subscriptions' | 'paymentCustomers' | 'paymentLedger' | 'unmatchedPayments' | 'oneCallGrants'>,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(PaymentEffects) private readonly payments: PaymentEffects,
    @inject(CredentialRevocations) private readonly revocations: CredentialRevocations,
  ) {}

  async execute(token: string): Promise<void> {
    const userId = await this.uow.asSystem(async (s) => {
      const used = await s.emailVerifications.consume(sha256(token), this.clock.now());
      if (!used) throw new InvalidTokenError();
      // Locks first (before the users row), in the webhook's order: no deadlock with a delivery.
      const kept = await this.payments.lockForVerifiedEmail(s, used.email);
      if (!(await s.users.markEmailVerified(used.userId, used.email))) throw new InvalidTokenError();
      await s.outbox.add('user.updated', used.userId, { id: used.userId, emailVerified: true });
      await this.payments.attach(s, used.userId, kept, { via: 'verified-email' });
      return used.userId;
    });
    // A verified listed address grants its rights (ADMIN_EMAILS, TESTER_EMAILS) from the next request.
    await this.revocations.emailChanged(userId);
  }
}
