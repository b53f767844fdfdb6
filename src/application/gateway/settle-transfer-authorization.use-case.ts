import { inject, injectable } from 'tsyringe';
import { AUTHORIZATION_MISMATCH_TEXT, authorizationMismatch, type Hex, type SignedTransferAuthorization } from '../../domain/gateway/transfer-authorization.js';
import { MppPaymentRejectedError, SettlementFailedError, UpstreamUnavailableError } from '../errors.js';
import type { AuthorizationBinding, AuthorizationKey, RecordedAuthorization } from '../ports/authorization-ledger.port.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import type { MppTerms } from '../ports/gateway-settings.port.js';
import { ID_GENERATOR, type IdGenerator } from '../ports/id-generator.port.js';
import type { GatewaySystemScope } from '../ports/scopes/gateway-scope.port.js';
import type { SignedSettlement, TransferAuthorizationChain } from '../ports/transfer-authorization-chain.port.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';

/** A claim whose holder recorded nothing for this long died before signing: another attempt may take it over. */
export const AUTHORIZATION_CLAIM_LEASE_MS = 2 * 60 * 1000;
/** How long one process may hold the settler (nonce to broadcast: a few node calls) before another may take it. */
const SETTLER_LEASE_MS = 30_000;
/** How long a settlement waits for the settler held by another process before 502. */
const SETTLER_WAIT_MS = 20_000;
/** Settlements of other processes that take the next nonce first, tolerated before a 502. */
const NONCE_ATTEMPTS = 10;

export interface SettledAuthorization {
  readonly key: AuthorizationKey;
  /** The settlement transaction. */
  readonly transaction: Hex;
  readonly payer: Hex;
  /** True when this is the one retry of a settled payment whose plugin call failed: nothing new was settled. */
  readonly retry: boolean;
}

export interface AuthorizationPayment {
  readonly signed: SignedTransferAuthorization;
  /** The call it must pay for: plugin, body digest, price (base units). */
  readonly binding: AuthorizationBinding;
  readonly terms: MppTerms;
  readonly chain: TransferAuthorizationChain;
}

/**
 * Takes an EIP-3009 payment for exactly one call (decisions 0430-0432), whatever envelope carried
 * it (x402's `PAYMENT-SIGNATURE` here; MPP's `evm` authorization uses the same class). In order:
 * - an authorization already recorded is never settled again: the one allowed retry of a payment
 *   whose plugin failed (same signature, plugin, body, price: the ledger compares), or the resumption
 *   of a settlement recorded but not yet confirmed (a crash, a node that failed after the broadcast),
 *   else 402 `AUTHORIZATION_USED`;
 * - the pure rules (recipient, amount at least the price, validity window), then the chain's checks
 *   (signature by `from`, nonce unused on chain, balance, a simulation);
 * - the intent is recorded (`claim`: one of any number of racers wins), then, holding the settler's
 *   lease, the settlement is signed at the database's next nonce, recorded, and only then broadcast;
 * - it is awaited to MPP_CONFIRMATIONS; confirmed moves the record to `settled` (one caller runs the
 *   plugin); reverted is 402 `SETTLEMENT_REVERTED` (nothing moved); not known in time is 502 and the
 *   same payment presented again resumes it.
 * No database transaction is open while the chain is called.
 */
@injectable()
export class SettleTransferAuthorization {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemWork<GatewaySystemScope, 'authorizationLedger'>,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute(p: AuthorizationPayment): Promise<SettledAuthorization> {
    const a = p.signed.authorization;
    const key: AuthorizationKey = { token: p.terms.token.toLowerCase() as Hex, payer: a.from, nonce: a.nonce };
    const recorded = await this.ledger((l) => l.find(key));
    if (recorded) {
      const again = await this.again(p, key, recorded);
      if (again) return again;
    }
    const mismatch = authorizationMismatch(a, { recipient: p.terms.recipient, amount: p.binding.amount }, this.clock.now());
    if (mismatch) throw new MppPaymentRejectedError(mismatch, AUTHORIZATION_MISMATCH_TEXT[mismatch]);
    await p.chain.check(key.token, p.signed);

    const claimToken = this.ids.uuid();
    const now = this.clock.now();
    const claimed = await this.ledger((l) => l.claim({ key, signed: p.signed, binding: p.binding, claimToken }, now, new Date(now.getTime() - AUTHORIZATION_CLAIM_LEASE_MS)));
    if (!claimed) throw used();
    let settlement: SignedSettlement;
    try {
      settlement = await this.submit(p, key, claimToken);
    } catch (err) {
      // nothing was recorded for this claim (a recorded one is no longer `claimed`): the authorization stays presentable
      await this.ledger((l) => l.release(key, claimToken));
      throw err;
    }
    return this.confirm(p, key, settlement);
  }

  /** A recorded authorization presented again: its retry, or its settlement resumed; null when it may be claimed anew. */
  private async again(p: AuthorizationPayment, key: AuthorizationKey, recorded: RecordedAuthorization): Promise<SettledAuthorization | null> {
    const same = recorded.signature === p.signed.signature && sameBinding(recorded.binding, p.binding);
    if (recorded.status === 'reverted') return null;
    if (recorded.status === 'claimed') {
      if (recorded.claimedAt.getTime() < this.clock.now().getTime() - AUTHORIZATION_CLAIM_LEASE_MS) return null;
      throw used();
    }
    if (!same) throw used();
    if (recorded.status === 'failed') {
      if (await this.ledger((l) => l.claimRetry(key, p.binding))) return { key, transaction: recorded.settlement!.hash, payer: key.payer, retry: true };
      throw used();
    }
    if (recorded.status === 'submitted') return this.confirm(p, key, recorded.settlement!);
    throw used();
  }

  /** Under the settler's lease: the plan, a nonce, the signature, the record, then the broadcast. */
  private async submit(p: AuthorizationPayment, key: AuthorizationKey, claimToken: string): Promise<SignedSettlement> {
    const { chain } = p;
    const holder = this.ids.uuid();
    await this.acquireSettler(chain.settler, holder);
    try {
      // an undeployed ERC-6492 wallet first, at the settler's next nonce; the settlement's nonce follows it
      await chain.deployPayer(p.signed, () => this.nextNonce(chain), p.terms.settleTimeoutMs);
      const plan = await chain.plan(key.token, p.signed);
      for (let attempt = 0; attempt < NONCE_ATTEMPTS; attempt++) {
        const nonce = await this.nextNonce(chain);
        const signed = await chain.sign(key.token, p.signed, plan, nonce);
        // recorded (committed) before the broadcast: a crash from here on leaves the bytes to send again, never a second signature
        const outcome = await this.ledger((l) => l.recordSubmitted(key, claimToken, signed, this.clock.now()));
        if (outcome === 'lost') throw used();
        if (outcome === 'nonce-taken') continue;
        // earlier settlements the node may have lost first, or this one would wait behind their nonces
        for (const raw of await this.ledger((l) => l.unminedBefore(chain.settler, nonce))) await chain.broadcast(raw);
        await chain.broadcast(signed.raw);
        return signed;
      }
      throw new SettlementFailedError('SETTLER_BUSY', 'Other settlements kept taking the next nonce; nothing was moved, try again');
    } finally {
      await this.ledger((l) => l.releaseSettler(chain.settler, holder));
    }
  }

  private async confirm(p: AuthorizationPayment, key: AuthorizationKey, s: SignedSettlement): Promise<SettledAuthorization> {
    const outcome = await p.chain.outcome(s, p.terms.confirmations, p.terms.settleTimeoutMs);
    if (outcome === 'unconfirmed') {
      throw new UpstreamUnavailableError('MPP RPC', 'The settlement was sent but is not confirmed yet: send the same payment again to be served when it is');
    }
    if (outcome === 'reverted') {
      await this.ledger((l) => l.markReverted(key, s.hash, 'the settlement reverted on chain'));
      throw new MppPaymentRejectedError('SETTLEMENT_REVERTED', 'The settlement reverted on chain: nothing was moved');
    }
    if (!(await this.ledger((l) => l.markSettled(key, s.hash)))) throw used();
    return { key, transaction: s.hash, payer: key.payer, retry: false };
  }

  /** The node's pending count (transactions made elsewhere with the key) or, past it, the next by the recorded settlements. */
  private async nextNonce(chain: TransferAuthorizationChain): Promise<number> {
    const [recordedNext, pending] = await Promise.all([this.ledger((l) => l.nextSettlerNonce(chain.settler)), chain.pendingNonce()]);
    return Math.max(pending, recordedNext);
  }

  private async acquireSettler(settler: Hex, holder: string): Promise<void> {
    const deadline = this.clock.now().getTime() + SETTLER_WAIT_MS;
    for (;;) {
      const now = this.clock.now();
      if (await this.ledger((l) => l.acquireSettler(settler, holder, new Date(now.getTime() + SETTLER_LEASE_MS), now))) return;
      if (this.clock.now().getTime() > deadline) throw new SettlementFailedError('SETTLER_BUSY', 'The settler account stayed busy; nothing was moved, try again');
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  private ledger<T>(work: (l: GatewaySystemScope['authorizationLedger']) => Promise<T>): Promise<T> {
    return this.uow.asSystem((s) => work(s.authorizationLedger));
  }
}

const used = () => new MppPaymentRejectedError('AUTHORIZATION_USED', 'This authorization already paid for a call (or is being settled): sign a new one');

const sameBinding = (a: AuthorizationBinding, b: AuthorizationBinding) => a.plugin === b.plugin && a.bodyDigest === b.bodyDigest && a.amount === b.amount;
