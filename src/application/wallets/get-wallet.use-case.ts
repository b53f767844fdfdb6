import { inject, injectable } from 'tsyringe';
import { DomainError } from '../../domain/shared/domain-error.js';
import type { Wallet } from '../../domain/wallets/wallet.js';
import type { Actor } from '../auth/actor.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { WalletsUserScope } from '../ports/scopes/wallets-scope.port.js';
import { WALLET_BALANCES, type WalletBalances } from '../ports/wallet-balances.port.js';

/** A wallet with its balances, or why they could not be read (never a made-up zero). */
export interface WalletView {
  wallet: Wallet | null;
  network: string;
  token: WalletBalances['token'];
  balance: { native: string; token: string } | { error: string };
}

/** The caller's wallet and its balances as read now on the configured chain. */
@injectable()
export class GetWallet {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<WalletsUserScope, 'wallets'>,
    @inject(WALLET_BALANCES) private readonly balances: WalletBalances,
  ) {}

  async execute(actor: Pick<Actor, 'userId'>, signal?: AbortSignal): Promise<WalletView> {
    const wallet = await this.uow.asUser(actor.userId, (s) => s.wallets.get());
    const base = { wallet, network: this.balances.network, token: this.balances.token };
    if (!wallet) return { ...base, balance: { error: 'no wallet' } };
    try {
      return { ...base, balance: await this.balances.read(wallet.address as `0x${string}`, signal) };
    } catch (err) {
      // the record is still worth showing; the answer says the balance is unknown and why
      if (err instanceof DomainError) return { ...base, balance: { error: err.message } };
      throw err;
    }
  }
}
