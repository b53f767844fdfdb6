import { inject, injectable } from 'tsyringe';
import { DomainError } from '../../domain/shared/domain-error.js';
import type { UserId } from '../../domain/shared/ids.js';
import { isFinal, type Payout, type SignedTransfer } from '../../domain/wallets/payout.js';
import type { PayoutRepository } from '../ports/payout-repository.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { WalletsUserScope } from '../ports/scopes/wallets-scope.port.js';
import { WALLET_SIGNER, type WalletSigner } from '../ports/wallet-signer.port.js';

/** The job that sends (or checks) recorded payouts: `{userId, payoutIds}`; queued with them, a retry of the inline attempt. */
export const SEND_PAYOUTS_JOB = 'wallet.send-payouts';
/** The job waits this long first: the request that recorded the payouts normally sends them itself. */
export const SEND_PAYOUTS_JOB_DELAY_SECONDS = 30;

/**
 * How long a claim to sign a payout holds before another run may take it over: longer than a
 * claim's few node calls (nonce, fees, gas: each bounded by WALLET_RPC_TIMEOUT_MS, 30 s at most by
 * default). Only liveness depends on it: a run whose claim was taken over cannot record.
 */
export const PAYOUT_CLAIM_LEASE_MS = 2 * 60_000;

/** How long a run waits for another run's claim to be recorded (a replayed send answers with its hash), polling every CLAIM_POLL_MS. */
const CLAIM_WAIT_MS = 10_000;
const CLAIM_POLL_MS = 100;

const PARKED_REASON = (nonce: number) =>
  `parked for an operator: the node shows no receipt for this transfer, yet the wallet's nonce ${nonce} is used; it may be mined on a node this one lags, so it is never signed again, only checked`;

const signedOf = (p: Payout): SignedTransfer => ({ from: p.from!, hash: p.transactionHash!, nonce: p.nonce!, raw: p.rawTransaction! });

export interface SendPayoutsResult {
  payouts: Payout[];
  /** Some payout is not final (pending or submitted): the job will look again. */
  unfinished: boolean;
  /** Why the run stopped early (the node failed, funds short), when it did. */
  stoppedBy: DomainError | null;
}

/**
 * Sends recorded payouts, each at most once, in order: a `pending` payout is claimed in the
 * database, signed, recorded with its raw bytes under that claim, then broadcast
 * (WalletSigner.submit); a `submitted` one is only checked (settle: the recorded bytes broadcast
 * again when the node does not know them), never signed again. Safe to run twice at once and again
 * after a crash at any step, with no lock between runs: the inline attempt of a request, its
 * queued job, and the job's retries all go through here.
 */
@injectable()
export class SendPayouts {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<WalletsUserScope, 'payouts'>,
    @inject(WALLET_SIGNER) private readonly signer: WalletSigner,
  ) {}

  /**
   * @param opts.refusalIsFinal a refusal before anything was broadcast (funds short, node down)
   *   ends the payout `failed` (a send the caller is told about), instead of leaving it pending
   *   for the job (a split's payouts, already owed).
   */
  async run(userId: UserId, payoutIds: readonly string[], opts: { refusalIsFinal?: boolean; signal?: AbortSignal } = {}): Promise<SendPayoutsResult> {
    let stoppedBy: DomainError | null = null;
    for (const id of payoutIds) {
      try {
        // one not yet mined: the next would only queue behind it, and the job looks again
        if ((await this.sendOne(userId, id, opts.signal)) === 'unconfirmed') break;
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        stoppedBy = err;
        await this.uow.asUser(userId, (s) => (opts.refusalIsFinal ? this.failIfUnsent(s.payouts, id, err.message) : s.payouts.noteError(id, err.message)));
        break;
      }
    }
    const payouts = await this.read(userId, payoutIds);
    return { payouts, unfinished: payouts.some((p) => !isFinal(p)), stoppedBy };
  }

  private async sendOne(userId: UserId, id: string, signal?: AbortSignal): Promise<'settled' | 'unconfirmed'> {
    // at most: pending → (another run recorded it) submitted → checked
    for (let step = 0; step < 2; step++) {
      const payout = await this.uow.asUser(userId, (s) => s.payouts.get(id));
      if (!payout || isFinal(payout)) return 'settled';
      if (payout.status === 'submitted') return this.check(userId, id, signedOf(payout), signal);
      let claim: string | null = null;
      const signed = await this.signer
        .submit(
          userId,
          { to: payout.to, amount: payout.amount },
          {
            // the database decides who signs: one conditional update, whatever else runs
            claim: async () => (claim = await this.uow.asUser(userId, (s) => s.payouts.claim(id, PAYOUT_CLAIM_LEASE_MS))) !== null,
            nextNonce: (from) => this.uow.asUser(userId, (s) => s.payouts.nextNonce(from)),
            record: (t) => this.uow.asUser(userId, (s) => s.payouts.markSubmitted(id, claim!, t)),
            unminedBefore: (from, nonce) => this.uow.asUser(userId, (s) => s.payouts.unminedBefore(from, nonce)),
          },
          signal,
        )
        .catch(async (err: unknown) => {
          // refused before anything was recorded (node down, funds short): the next run may claim it at once
          if (claim !== null) await this.uow.asUser(userId, (s) => s.payouts.releaseClaim(id, claim!));
          throw err;
        });
      if (signed) return this.check(userId, id, signed, signal);
      if (!(await this.recordedByAnother(userId, id))) return 'unconfirmed'; // still signing there: the job looks again
    }
    return 'unconfirmed';
  }

  /**
   * Another run holds the claim: its record is a few node calls away. Waits for it (reading the row,
   * no connection held meanwhile), so that a repeated send answers with the hash. False if the
   * payout is still pending after CLAIM_WAIT_MS.
   */
  private async recordedByAnother(userId: UserId, id: string): Promise<boolean> {
    // counted in polls, not read from a clock: a wait, not a time the core decides anything by
    for (let polls = 0; ; polls++) {
      const now = await this.uow.asUser(userId, (s) => s.payouts.get(id));
      if (now?.status !== 'pending') return true;
      if (polls * CLAIM_POLL_MS >= CLAIM_WAIT_MS) return false;
      await new Promise((resolve) => setTimeout(resolve, CLAIM_POLL_MS));
    }
  }

  /**
   * Settles a recorded transfer; a stuck one is parked, never signed again: while a transaction of
   * the payout could still be mined, another would pay twice (docs/decisions/0415).
   */
  private async check(userId: UserId, id: string, signed: SignedTransfer, signal?: AbortSignal): Promise<'settled' | 'unconfirmed'> {
    const outcome = await this.signer.settle(signed, signal);
    if (outcome === 'unconfirmed') return outcome;
    if (outcome === 'stuck') {
      await this.uow.asUser(userId, (s) => s.payouts.park(id, PARKED_REASON(signed.nonce)));
      return 'unconfirmed';
    }
    await this.uow.asUser(userId, (s) => (outcome === 'confirmed' ? s.payouts.markConfirmed(id) : s.payouts.markFailed(id, 'the transfer reverted on chain')));
    return 'settled';
  }

  /** Only a payout never signed may fail this way: a signed one may still be mined. */
  private async failIfUnsent(payouts: PayoutRepository, id: string, reason: string) {
    const p = await payouts.getForUpdate(id);
    if (p?.status === 'pending') await payouts.markFailed(id, `not sent: ${reason}`);
    else if (p && !isFinal(p)) await payouts.noteError(id, reason);
  }

  private read(userId: UserId, ids: readonly string[]): Promise<Payout[]> {
    return this.uow.asUser(userId, async (s) => {
      const out: Payout[] = [];
      for (const id of ids) {
        const p = await s.payouts.get(id);
        if (p) out.push(p);
      }
      return out;
    });
  }
}
