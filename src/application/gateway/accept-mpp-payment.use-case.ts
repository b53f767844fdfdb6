import { inject, injectable } from 'tsyringe';
import type { GatewayPluginId } from '../../domain/gateway/gateway-plugin-id.js';
import { challengeMismatch, toBaseUnits, type PaymentCredential } from '../../domain/gateway/mpp.js';
import { MppPaymentRejectedError } from '../errors.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { MPP_PAYER_SIGNATURES, type PersonalSignVerifier } from '../ports/personal-sign-verifier.port.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';
import type { GatewaySystemScope } from '../ports/scopes/gateway-scope.port.js';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../ports/gateway-settings.port.js';
import { MPP_AVAILABILITY, type MppAvailability } from '../ports/mpp-availability.port.js';
import type { MppPayerShare } from '../ports/mpp-payment-verifier.port.js';
import { assertWithinPrepaidBounds } from './prepaid-call-bounds.js';
import { requestDigest } from './request-digest.js';

export interface AcceptedMppPayment {
  readonly nonce: string;
  readonly txHash: `0x${string}`;
  /** The payer of the Transfer logs; null on a retry (read when the payment was first taken). */
  readonly payer: `0x${string}` | null;
  /** True when this is the one retry of a payment whose plugin call failed. */
  readonly retry: boolean;
}

class TransactionAlreadyUsed extends Error {}

const MISMATCH_TEXT: Record<string, string> = {
  UNKNOWN_NONCE: 'The credential names no challenge of this service',
  EXPIRED: 'The challenge expired: ask for a new one',
  OTHER_PLUGIN: 'The challenge was issued for another plugin',
  OTHER_BODY: 'The challenge was issued for another request body',
  OTHER_TERMS: 'The challenge was issued under other terms (price, token or recipient)',
};

/**
 * Takes an MPP payment for exactly this request (issue 10 item 3). In order: the credential's
 * challenge exists, is unexpired and unconsumed, and binds this plugin, this input and today's
 * terms; the chain shows the payment (MppPaymentVerifier); a payer (a Transfer logs' `from` whose own
 * logs pay the price) signed the challenge nonce, so a transfer anyone can see on chain is claimed
 * by its payer only, for what that payer paid;
 * then nonce and transaction hash are consumed together in one system transaction, where unique
 * constraints let exactly one of any number of racing requests win. Nothing is consumed when the
 * RPC fails (502) or the payment is refused (402): a transfer claimed with a wrong signature stays
 * claimable by its payer. A payment whose plugin call failed (`markFailed`) may be retried once with the
 * same credential, for the same plugin and input, without a second payment.
 */
@injectable()
export class AcceptMppPayment {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemWork<GatewaySystemScope, 'mppLedger'>,
    @inject(GATEWAY_SETTINGS) private readonly settings: GatewaySettings,
    @inject(MPP_AVAILABILITY) private readonly availability: MppAvailability,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(MPP_PAYER_SIGNATURES) private readonly signatures: PersonalSignVerifier,
  ) {}

  async execute(credential: PaymentCredential, plugin: GatewayPluginId, input: unknown): Promise<AcceptedMppPayment> {
    assertWithinPrepaidBounds(plugin, input, this.settings.prepaid);
    const mpp = await this.availability.current();
    if (!mpp) throw new MppPaymentRejectedError('MPP_UNAVAILABLE', 'MPP payments are not offered right now');
    const { terms, verifier } = mpp;
    const nonce = credential.challengeNonce;
    const signature = credential.signature;
    if (!signature) throw new MppPaymentRejectedError('PAYER_SIGNATURE_MISSING', "The credential must carry the payer's signature of the challenge nonce (signature)");
    const now = this.clock.now();
    const amount = toBaseUnits(this.settings.prices[plugin], terms.decimals);
    const request = { plugin, bodyDigest: requestDigest(input), amount, token: terms.token, recipient: terms.recipient };

    const challenge = await this.uow.asSystem((s) => s.mppLedger.findChallenge(nonce));
    const mismatch = challengeMismatch(challenge, request, now);
    if (challenge?.consumed) {
      // the one allowed retry keeps working after the challenge's five minutes, for the same request
      // only: EXPIRED is reported only once plugin, body and terms match, and the ledger compares
      // plugin, body and price again in the statement that claims the retry
      if (mismatch === null || mismatch === 'EXPIRED') {
        const retry = { nonce, txHash: credential.transaction, plugin, bodyDigest: request.bodyDigest, amount };
        const claimed = await this.uow.asSystem((s) => s.mppLedger.claimRetry(retry));
        if (claimed) return { nonce, txHash: credential.transaction, payer: null, retry: true };
      }
      throw new MppPaymentRejectedError('CHALLENGE_USED', 'This challenge was already paid and used: ask for a new one');
    }
    if (mismatch) throw new MppPaymentRejectedError(mismatch, MISMATCH_TEXT[mismatch]!);
    // A transaction already spent says so, whatever the chain would say of its time against this newer
    // challenge (and costs no node call); `consume` below stays the guard against a concurrent claim.
    if (await this.uow.asSystem((s) => s.mppLedger.transactionUsed(credential.transaction))) {
      throw new MppPaymentRejectedError('TX_USED', 'This transaction already paid for another call');
    }

    const paid = await verifier.verify({
      transaction: credential.transaction,
      token: terms.token,
      recipient: terms.recipient,
      minAmount: amount,
      notBefore: challenge!.issuedAt,
      confirmations: terms.confirmations,
    });
    // the retry above needs no new proof: the payer signed when the payment was first taken
    const claimant = await this.signer(paid.payers, nonce, signature);
    if (!claimant) throw new MppPaymentRejectedError('PAYER_SIGNATURE_INVALID', "The signature is not the payer's signature of this challenge nonce");

    let outcome: 'consumed' | 'nonce_used' | 'tx_used';
    try {
      outcome = await this.uow.asSystem(async (s) => {
        const r = await s.mppLedger.consume({ nonce, txHash: credential.transaction, payer: claimant.payer.toLowerCase(), amount: claimant.amount, plugin }, this.clock.now());
        // roll the nonce's consumption back with the refused insert
        if (r === 'tx_used') throw new TransactionAlreadyUsed();
        return r;
      });
    } catch (err) {
      if (!(err instanceof TransactionAlreadyUsed)) throw err;
      outcome = 'tx_used';
    }
    if (outcome === 'tx_used') throw new MppPaymentRejectedError('TX_USED', 'This transaction already paid for another call');
    if (outcome === 'nonce_used') throw new MppPaymentRejectedError('CHALLENGE_USED', 'This challenge was already paid and used: ask for a new one');
    return { nonce, txHash: credential.transaction, payer: claimant.payer, retry: false };
  }

  /**
   * The sender who signed the nonce, of those who each paid the price in this transaction (one,
   * but for a router's or batcher's transfers): asked in turn, a node call at most each, and each
   * there only because a sender paid the full price.
   */
  private async signer(payers: readonly MppPayerShare[], nonce: string, signature: `0x${string}`): Promise<MppPayerShare | null> {
    for (const share of payers) {
      if (await this.signatures.isSignedBy({ message: nonce, signature, address: share.payer })) return share;
    }
    return null;
  }
}
