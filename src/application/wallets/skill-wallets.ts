import { createHash } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import { InvalidInputError, NotFoundError } from '../errors.js';
import type { UserId } from '../../domain/shared/ids.js';
import { IdempotencyKeyReusedError, PayoutRevertedError, type Payout } from '../../domain/wallets/payout.js';
import { decimalToTokenUnits } from '../../domain/shared/token-units.js';
import { fromTokenUnits, WalletNotConfiguredError } from '../../domain/wallets/wallet.js';
import type { UserWallets } from '../ports/user-wallets.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { WalletsUserScope } from '../ports/scopes/wallets-scope.port.js';
import { WALLET_BALANCES, type WalletBalances } from '../ports/wallet-balances.port.js';
import { WALLET_SIGNER, type WalletSigner } from '../ports/wallet-signer.port.js';
import { presentPayout } from './present-payout.js';
import { SEND_PAYOUTS_JOB, SEND_PAYOUTS_JOB_DELAY_SECONDS, SendPayouts } from './send-payouts.use-case.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';

/**
 * A send without a key is the same send as an identical one of the same user (same recipient, same
 * amount) that is unfinished, or that was made this recently (decision 0392): a client retrying
 * after a lost answer pays once. A second payment of the same amount meant as such carries a key.
 */
export const DERIVED_KEY_WINDOW_MS = 10 * 60_000;

/**
 * The `wallet` capability for skills (usdc-payments): the owner's wallet through the custody
 * port, on the configured chain and token. Amounts are decimal text in token units. A send is a
 * payout row first (the outbox, with its idempotency key), then sent by SendPayouts.
 */
@injectable()
export class SkillWallets implements UserWallets {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<WalletsUserScope, 'wallets' | 'payouts' | 'jobs'>,
    @inject(WALLET_BALANCES) private readonly balances: WalletBalances,
    @inject(WALLET_SIGNER) private readonly signer: WalletSigner,
    @inject(SendPayouts) private readonly payouts: SendPayouts,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  async balance(userId: UserId, signal?: AbortSignal) {
    this.requireChain();
    const wallet = await this.uow.asUser(userId, (s) => s.wallets.get());
    if (!wallet) throw new NotFoundError('Wallet');
    const read = await this.balances.read(wallet.address as `0x${string}`, signal);
    return { address: wallet.address, balance: read.token, token: this.balances.token.symbol, nativeBalance: read.native, network: this.balances.network };
  }

  async send(userId: UserId, payment: { to: string; amount: string; idempotencyKey?: string | undefined }, signal?: AbortSignal) {
    this.requireChain();
    const { decimals } = this.balances.token;
    const amount = decimalToTokenUnits(payment.amount, decimals);
    if (amount === null || amount === 0n) throw new InvalidInputError('VALIDATION_ERROR', `amount must be a positive decimal with at most ${decimals} decimals`, {
        details: [{ path: 'body/amount', message: `must be a positive decimal with at most ${decimals} decimals` }],
      });
    const to = payment.to.toLowerCase() as `0x${string}`;
    const requestHash = createHash('sha256').update(`${to}:${amount}`).digest('hex');
    const key = payment.idempotencyKey ?? null;

    const { payout, replayed } = await this.uow.asUser(userId, async (s) => {
      if (!(await s.wallets.get())) throw new NotFoundError('Wallet');
      // two identical requests at once: the second waits here and finds the first's row (per user:
      // another user's identical send has nothing to wait for)
      await s.payouts.lockRequest(`${userId}:${key ?? requestHash}`);
      const earlier = key !== null ? await s.payouts.byIdempotencyKey(key) : await s.payouts.recentSameRequest(requestHash, new Date(this.clock.now().getTime() - DERIVED_KEY_WINDOW_MS));
      if (earlier && earlier.requestHash !== requestHash) throw new IdempotencyKeyReusedError();
      // a repeat of a send refused before anything was broadcast is a new attempt
      if (earlier && !(earlier.status === 'failed' && earlier.transactionHash === null)) return { payout: earlier, replayed: true };
      const fresh = earlier
        ? await s.payouts.reopen(earlier.id)
        : await s.payouts.insert(userId, { executionId: null, position: 0, idempotencyKey: key, requestHash, to, amount, amountCents: null });
      await queueSend(s, userId, [fresh.id]);
      return { payout: fresh, replayed: false };
    });

    const { payouts, stoppedBy } = await this.payouts.run(userId, [payout.id], { refusalIsFinal: true, ...(signal ? { signal } : {}) });
    const now = payouts[0]!;
    if (now.status === 'failed' && now.transactionHash === null && stoppedBy) throw stoppedBy;
    if (now.status === 'failed') throw new PayoutRevertedError(this.present(now, replayed));
    return this.present(now, replayed);
  }

  async payment(userId: UserId, ref: { paymentId?: string | undefined; idempotencyKey?: string | undefined }) {
    const found = await this.uow.asUser(userId, (s) => (ref.paymentId !== undefined ? s.payouts.get(ref.paymentId) : s.payouts.byIdempotencyKey(ref.idempotencyKey ?? '')));
    if (!found || found.executionId !== null) throw new NotFoundError('Payment');
    return this.present(found, true);
  }

  private present(p: Payout, replayed: boolean) {
    return {
      ...presentPayout(p),
      idempotencyKey: p.idempotencyKey,
      replayed,
      from: p.from,
      amount: fromTokenUnits(p.amount, this.balances.token.decimals),
      token: this.balances.token.symbol,
      network: this.balances.network,
    };
  }

  /** Without a node nothing can be read or sent: 501 NOT_CONFIGURED, before any wallet lookup. */
  private requireChain(): void {
    if (!this.signer.configured) throw new WalletNotConfiguredError('The wallet chain (BASE_RPC_URL)');
  }
}

/** The job that finishes these payouts if the request that recorded them does not (a crash, a timeout). */
export const queueSend = (s: Pick<WalletsUserScope, 'jobs'>, userId: string, payoutIds: string[]) =>
  s.jobs.send({ queue: 'tasks', kind: SEND_PAYOUTS_JOB, data: { userId, payoutIds }, startAfterSeconds: SEND_PAYOUTS_JOB_DELAY_SECONDS });
