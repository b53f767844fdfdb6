import { inject, injectable } from 'tsyringe';
import { InvalidInputError, NotFoundError } from '../errors.js';
import type { UserId } from '../../domain/shared/ids.js';
import { toTokenUnits, WalletNotConfiguredError } from '../../domain/wallets/wallet.js';
import type { UserWallets } from '../ports/skill-services.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import { WALLET_BALANCES, WALLET_SIGNER, type WalletBalances, type WalletSigner } from '../ports/wallet-custody.port.js';

/**
 * The `wallet` capability for skills (usdc-payments): the owner's wallet through the custody
 * port, on the configured chain and token. Amounts are decimal text in token units.
 */
@injectable()
export class SkillWallets implements UserWallets {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<'wallets'>,
    @inject(WALLET_BALANCES) private readonly balances: WalletBalances,
    @inject(WALLET_SIGNER) private readonly signer: WalletSigner,
  ) {}

  async balance(userId: UserId, signal?: AbortSignal) {
    this.requireChain();
    const wallet = await this.uow.asUser(userId, (s) => s.wallets.get());
    if (!wallet) throw new NotFoundError('Wallet');
    const read = await this.balances.read(wallet.address as `0x${string}`, signal);
    return { address: wallet.address, balance: read.token, token: this.balances.token.symbol, nativeBalance: read.native, network: this.balances.network };
  }

  async send(userId: UserId, payment: { to: string; amount: string }, signal?: AbortSignal) {
    this.requireChain();
    const { decimals, symbol } = this.balances.token;
    const amount = toTokenUnits(payment.amount, decimals);
    if (amount === null || amount === 0n) throw new InvalidInputError('VALIDATION_ERROR', `amount must be a positive decimal with at most ${decimals} decimals`, {
        details: [{ path: 'body/amount', message: `must be a positive decimal with at most ${decimals} decimals` }],
      });
    const to = payment.to.toLowerCase() as `0x${string}`;
    const { from, transactions } = await this.signer.transferToken(userId, [{ to, amount }], signal);
    return { transactionHash: transactions[0]!.transactionHash, from, to, amount: payment.amount, token: symbol, network: this.balances.network };
  }

  /** Without a node nothing can be read or sent: 501 NOT_CONFIGURED, before any wallet lookup. */
  private requireChain(): void {
    if (!this.signer.configured) throw new WalletNotConfiguredError('The wallet chain (BASE_RPC_URL)');
  }
}
