import { inject, injectable } from 'tsyringe';
import type { GatewayPluginId } from '../../domain/gateway/gateway-plugin-id.js';
import { isPaymentAuthorization, parsePaymentCredential } from '../../domain/gateway/mpp.js';
import type { Actor } from '../auth/actor.js';
import { InvalidInputError, MppPaymentRejectedError } from '../errors.js';
import { AcceptMppPayment } from './accept-mpp-payment.use-case.js';
import { AcceptX402Payment } from './accept-x402-payment.use-case.js';
import { AcceptMppEvmPayment } from './accept-mpp-evm-payment.use-case.js';
import { mppxCredentialJson, parseMppEvmCredential, type MppEvmCredential } from '../../domain/gateway/mpp-evm.js';
import { ChooseProcessorPayer, PREPAID_LEVEL } from './choose-processor-payer.use-case.js';
import type { GatewayPayer } from '../ports/gateway-plugin.port.js';
import { IssuePaymentChallenge, type PaymentChallenge } from './issue-payment-challenge.use-case.js';
import type { TakenPayment } from './run-gateway-call.use-case.js';

/** The spec's two ways to pay: the processor (its literal value `stripe`) or on chain (`mpp`). */
export type GatewayPaymentMethod = 'stripe' | 'mpp';

export interface GatewayPaymentRequest {
  readonly plugin: GatewayPluginId;
  /** `X-Payment-Method` as sent, if it was. */
  readonly namedMethod: string | undefined;
  /** `Authorization` as sent: a `Payment` credential pays on chain. */
  readonly authorization: string | undefined;
  /** `PAYMENT-SIGNATURE` (or `X-PAYMENT`) as sent: an x402 payment, on chain too. */
  readonly paymentSignature: string | undefined;
  /** The authenticated caller, or null. */
  readonly caller: Actor | null;
  /** Checks the plugin's input (400): called only once the processor method has a caller (401 first). */
  readonly readInput: () => unknown;
}

/** Why a sent credential did not pay, told in the 402. */
export interface ChallengeReason {
  readonly code: string;
  readonly message: string;
}

export type GatewayPaymentOutcome =
  /** The processor method without a caller: nothing read, nothing issued. */
  | { readonly kind: 'unauthorized' }
  /** Not paid: the 402 offers this challenge; `reason` when a sent credential was refused. */
  | { readonly kind: 'challenge'; readonly method: GatewayPaymentMethod; readonly challenge: PaymentChallenge; readonly reason?: ChallengeReason }
  /** Paid: the plugin may run for `payer`; `taken` is what a failure before any output gives back. */
  | {
      readonly kind: 'paid';
      readonly method: GatewayPaymentMethod;
      readonly input: unknown;
      readonly payer: GatewayPayer;
      readonly taken: TakenPayment;
      /** The transaction hash of an on-chain payment, else null. */
      readonly receipt: string | null;
      /** An x402 payment's settlement (`PAYMENT-RESPONSE`), else null. */
      readonly settlement: X402Settlement | null;
    };

/** What `PAYMENT-RESPONSE` tells of a settled x402 payment. */
export interface X402Settlement {
  readonly transaction: string;
  readonly chainId: number;
  readonly payer: string;
}

const decodeBase64Url = (text: string) => Buffer.from(text, 'base64url').toString('utf8');

/**
 * How a gateway call is paid (spec "Payment method selection", CONTRACT.md sections 5 and 6).
 * The method: `X-Payment-Method` (stripe or mpp, else 400); else `Authorization: Payment` or an x402
 * `PAYMENT-SIGNATURE` means mpp; else the processor. Under mpp, `Authorization: Payment` is read
 * first: mppx's envelope is MPP's evm authorization (AcceptMppEvmPayment), anything else the spec's
 * credential (AcceptMppPayment); else `PAYMENT-SIGNATURE` (AcceptX402Payment). The processor method needs a caller (else `unauthorized`, before the input
 * is read); then the caller's subscription or one of their one-call grants pays (ChooseProcessorPayer),
 * else a challenge. MPP: an unreadable or refused credential is answered with a new challenge and
 * the reason; an accepted one pays the call as prepaid, for whoever sent it. Every challenge is
 * issued for the exact input (IssuePaymentChallenge). Other failures (an RPC node that fails: 502)
 * are thrown.
 */
@injectable()
export class PayForGatewayCall {
  constructor(
    @inject(AcceptMppPayment) private readonly acceptMpp: AcceptMppPayment,
    @inject(AcceptX402Payment) private readonly acceptX402: AcceptX402Payment,
    @inject(AcceptMppEvmPayment) private readonly acceptMppEvm: AcceptMppEvmPayment,
    @inject(ChooseProcessorPayer) private readonly chooseProcessorPayer: ChooseProcessorPayer,
    @inject(IssuePaymentChallenge) private readonly issueChallenge: IssuePaymentChallenge,
  ) {}

  async execute(request: GatewayPaymentRequest): Promise<GatewayPaymentOutcome> {
    const { plugin, caller, authorization } = request;
    const method = paymentMethod(request.namedMethod, authorization, request.paymentSignature);
    if (method === 'stripe' && !caller) return { kind: 'unauthorized' };
    const input = request.readInput();
    if (method === 'stripe') {
      // the processor method has a caller here (unauthorized above)
      const chosen = await this.chooseProcessorPayer.execute(caller!, plugin, input);
      if (!chosen) return this.challenge(method, plugin, input);
      const taken: TakenPayment = chosen.grantId ? { kind: 'grant', grantId: chosen.grantId } : { kind: 'metered' };
      return { kind: 'paid', method, input, payer: chosen.payer, taken, receipt: null, settlement: null };
    }
    if (!isPaymentAuthorization(authorization) && request.paymentSignature !== undefined) return this.payX402(request.paymentSignature, plugin, input, caller);
    // mppx's envelope (`{challenge, payload}`): MPP's evm authorization; else the spec's credential
    const mppx = isPaymentAuthorization(authorization) ? mppxCredentialJson(authorization!, decodeBase64Url) : null;
    if (mppx) return this.payMppEvm(parseMppEvmCredential(mppx), plugin, input, caller);
    const credential = isPaymentAuthorization(authorization) ? parsePaymentCredential(authorization!, decodeBase64Url) : null;
    if (!credential) {
      const unreadable = isPaymentAuthorization(authorization) ? { code: 'CREDENTIAL_INVALID', message: 'The Payment credential could not be read' } : undefined;
      return this.challenge(method, plugin, input, unreadable);
    }
    let accepted;
    try {
      accepted = await this.acceptMpp.execute(credential, plugin, input);
    } catch (err) {
      if (err instanceof MppPaymentRejectedError) return this.challenge(method, plugin, input, { code: err.reason, message: err.message });
      throw err;
    }
    const payer: GatewayPayer = { kind: 'prepaid', via: 'mpp', userId: caller?.userId ?? null, receipt: accepted.txHash, level: PREPAID_LEVEL };
    return { kind: 'paid', method, input, payer, taken: { kind: 'mpp', nonce: accepted.nonce }, receipt: accepted.txHash, settlement: null };
  }

  /**
   * MPP's evm authorization (mppx): settled (or its one retry granted) pays the call as prepaid, as
   * x402's; unreadable or refused, a fresh challenge and the reason.
   */
  private async payMppEvm(credential: MppEvmCredential | null, plugin: GatewayPluginId, input: unknown, caller: Actor | null): Promise<GatewayPaymentOutcome> {
    if (!credential) return this.challenge('mpp', plugin, input, { code: 'CREDENTIAL_INVALID', message: "The Payment credential could not be read as MPP's evm authorization" });
    let settled;
    try {
      settled = await this.acceptMppEvm.execute(credential, plugin, input);
    } catch (err) {
      if (err instanceof MppPaymentRejectedError) return this.challenge('mpp', plugin, input, { code: err.reason, message: err.message });
      throw err;
    }
    const payer: GatewayPayer = { kind: 'prepaid', via: 'mpp', userId: caller?.userId ?? null, receipt: settled.transaction, level: PREPAID_LEVEL };
    return { kind: 'paid', method: 'mpp', input, payer, taken: { kind: 'authorization', key: settled.key }, receipt: settled.transaction, settlement: null };
  }

  /** An x402 payment: settled (or its one retry granted) pays the call as prepaid; refused, a fresh challenge and the reason. */
  private async payX402(header: string, plugin: GatewayPluginId, input: unknown, caller: Actor | null): Promise<GatewayPaymentOutcome> {
    let settled;
    try {
      settled = await this.acceptX402.execute(header, plugin, input);
    } catch (err) {
      if (err instanceof MppPaymentRejectedError) return this.challenge('mpp', plugin, input, { code: err.reason, message: err.message });
      throw err;
    }
    const payer: GatewayPayer = { kind: 'prepaid', via: 'mpp', userId: caller?.userId ?? null, receipt: settled.transaction, level: PREPAID_LEVEL };
    const settlement = { transaction: settled.transaction, chainId: settled.chainId, payer: settled.payer };
    return { kind: 'paid', method: 'mpp', input, payer, taken: { kind: 'authorization', key: settled.key }, receipt: settled.transaction, settlement };
  }

  private async challenge(method: GatewayPaymentMethod, plugin: GatewayPluginId, input: unknown, reason?: ChallengeReason): Promise<GatewayPaymentOutcome> {
    const challenge = await this.issueChallenge.execute(plugin, input);
    return reason ? { kind: 'challenge', method, challenge, reason } : { kind: 'challenge', method, challenge };
  }
}

/**
 * Spec order: X-Payment-Method; else `Authorization: Payment` means mpp, and so does a presented
 * `PAYMENT-SIGNATURE` (or `X-PAYMENT`); else the processor (`stripe`).
 */
function paymentMethod(named: string | undefined, authorization: string | undefined, paymentSignature: string | undefined): GatewayPaymentMethod {
  const method = named?.trim().toLowerCase();
  if (method === 'mpp' || method === 'stripe') return method;
  if (method) throw new InvalidInputError('VALIDATION_ERROR', 'X-Payment-Method must be stripe or mpp');
  return isPaymentAuthorization(authorization) || paymentSignature !== undefined ? 'mpp' : 'stripe';
}
