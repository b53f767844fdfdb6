import { inject, injectable } from 'tsyringe';
import { usageDay } from '../../domain/billing/units.js';
import { UserNotFoundError } from '../../domain/accounts/accounts.errors.js';
import { decimalToTokenUnits } from '../../domain/shared/token-units.js';
import { PayoutsUnfinishedError, WalletNotConfiguredError, WalletNotEmptyError } from '../../domain/wallets/wallet.js';
import type { Actor } from '../auth/actor.js';
import { CredentialRevocations } from '../auth/credential-revocations.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import type { AccountsUserScope } from '../ports/scopes/accounts-scope.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import { WALLET_BALANCES, type WalletBalances } from '../ports/wallet-balances.port.js';

/**
 * Below this much ETH a wallet counts as empty of it: what gas leaves behind after its owner sent
 * everything else out (a wallet cannot pay its last transfer's gas and hold exactly zero).
 */
const NATIVE_DUST_WEI = 10n ** 14n;

/**
 * Deletes the caller's account and, through the foreign keys, everything it owns; user.deleted is
 * written in the same transaction. Its sessions and keys stop working here at once.
 *
 * Refused while the account's wallet holds funds (its sealed key would go with the account) or
 * owes payouts not yet finished (decision 0394): the balance is read on the chain first, a node
 * that cannot answer refuses the deletion (502), and the payouts are counted with the user's row
 * locked, so a payout queued meanwhile waits and then finds no user.
 */
@injectable()
export class DeleteAccount {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<AccountsUserScope, 'apiKeys' | 'outbox' | 'sessions' | 'users' | 'wallets' | 'payouts'>,
    @inject(CredentialRevocations) private readonly revocations: CredentialRevocations,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(WALLET_BALANCES) private readonly balances: WalletBalances,
  ) {}

  async execute(actor: Actor): Promise<void> {
    const wallet = await this.uow.asUser(actor.userId, (s) => s.wallets.get());
    if (wallet) await this.assertEmpty(wallet.address as `0x${string}`);
    const { sessions, keys } = await this.uow.asUser(actor.userId, async (s) => {
      if (!(await s.users.lockForDelete())) throw new UserNotFoundError();
      const unfinished = await s.payouts.countUnfinished();
      if (unfinished > 0) throw new PayoutsUnfinishedError(unfinished);
      const keys = (await s.apiKeys.list(usageDay(this.clock.now()))).map((k) => k.id);
      const sessions = await s.sessions.deleteAllOf(actor.userId, null);
      if (!(await s.users.delete())) throw new UserNotFoundError();
      await s.outbox.add('user.deleted', actor.userId, { id: actor.userId, email: actor.email, deletedAt: this.clock.now().toISOString() });
      return { sessions, keys };
    });
    await this.revocations.sessionsEnded(sessions);
    await this.revocations.keysDeleted(keys);
  }

  /**
   * @throws WalletNotEmptyError; a node that fails as the balance reader throws it (UPSTREAM_UNAVAILABLE).
   * With no chain configured the service can neither read nor move the wallet's funds, before the
   * deletion or after it: nothing is checked, as nothing could be done.
   */
  private async assertEmpty(address: `0x${string}`): Promise<void> {
    let held: { native: string; token: string };
    try {
      held = await this.balances.read(address);
    } catch (err) {
      if (err instanceof WalletNotConfiguredError) return;
      throw err;
    }
    const { decimals, symbol } = this.balances.token;
    // a figure that does not read as units counts as funds: never delete on a doubt
    if ((decimalToTokenUnits(held.token, decimals) ?? 1n) > 0n || (decimalToTokenUnits(held.native, 18) ?? NATIVE_DUST_WEI) >= NATIVE_DUST_WEI) {
      throw new WalletNotEmptyError({ token: held.token, symbol, native: held.native });
    }
  }
}
