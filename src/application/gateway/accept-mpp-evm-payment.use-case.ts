import { inject, injectable } from 'tsyringe';
import type { GatewayPluginId } from '../../domain/gateway/gateway-plugin-id.js';
import { challengeMismatch, toBaseUnits } from '../../domain/gateway/mpp.js';
import { challengeBoundNonce, mppEvmBindingMismatch, realmOf, type MppEvmCredential } from '../../domain/gateway/mpp-evm.js';
import type { Hex } from '../../domain/gateway/transfer-authorization.js';
import { MppPaymentRejectedError } from '../errors.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { KECCAK256, type Keccak256 } from '../ports/keccak256.port.js';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../ports/gateway-settings.port.js';
import { MPP_AVAILABILITY, type MppAvailability } from '../ports/mpp-availability.port.js';
import type { GatewaySystemScope } from '../ports/scopes/gateway-scope.port.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';
import { assertWithinPrepaidBounds } from './prepaid-call-bounds.js';
import { requestDigest } from './request-digest.js';
import { SettleTransferAuthorization, type SettledAuthorization } from './settle-transfer-authorization.use-case.js';

const MISMATCH_TEXT: Record<string, string> = {
  UNKNOWN_NONCE: 'The credential names no challenge of this service',
  EXPIRED: 'The challenge expired: ask for a new one',
  OTHER_PLUGIN: 'The challenge was issued for another plugin',
  OTHER_BODY: 'The challenge was issued for another request body',
  OTHER_TERMS: 'The challenge was issued under other terms (price, token or recipient)',
  CHALLENGE_NOT_BOUND: "The authorization's nonce is not this challenge's (keccak256 of its id and realm)",
  SOURCE_MISMATCH: "The credential's source is not the authorization's payer on this chain",
};

/**
 * MPP's `evm` `authorization` credential, as mppx sends it, for exactly this call (decisions 0435,
 * 0437). In order: the challenge it names binds this plugin, body and today's terms (as the
 * transaction-hash credential's, decision 0410: compared before its time); the authorization's
 * nonce is keccak256 of that challenge's id and this gateway's realm, so the token contract itself
 * lets it move money once; `source`, when sent, names its payer. Then the challenge is consumed
 * (one of any number of racers), and the authorization is settled by SettleTransferAuthorization,
 * as x402's is, bound to plugin, body digest and price; a settlement refused or failed with nothing
 * recorded gives the challenge back. A consumed challenge is accepted only for an
 * authorization the ledger already holds: the one retry of a payment whose plugin failed, or a
 * settlement whose outcome was not known in time. Refusals are MppPaymentRejectedError (402 with a
 * fresh challenge and the reason).
 */
@injectable()
export class AcceptMppEvmPayment {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemWork<GatewaySystemScope, 'mppLedger' | 'authorizationLedger'>,
    @inject(GATEWAY_SETTINGS) private readonly settings: GatewaySettings,
    @inject(MPP_AVAILABILITY) private readonly availability: MppAvailability,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(SettleTransferAuthorization) private readonly settle: SettleTransferAuthorization,
    @inject(KECCAK256) private readonly keccak: Keccak256,
  ) {}

  async execute(credential: MppEvmCredential, plugin: GatewayPluginId, input: unknown): Promise<SettledAuthorization> {
    assertWithinPrepaidBounds(plugin, input, this.settings.prepaid);
    const mpp = await this.availability.current();
    if (!mpp?.authorizations) throw new MppPaymentRejectedError('MPP_EVM_UNAVAILABLE', "MPP's evm authorizations are not offered right now");
    const { terms } = mpp;
    const now = this.clock.now();
    const amount = toBaseUnits(this.settings.prices[plugin], terms.decimals);
    const request = { plugin, bodyDigest: requestDigest(input), amount, token: terms.token, recipient: terms.recipient };
    const id = credential.challengeId;

    const binding = mppEvmBindingMismatch(credential, { nonce: challengeBoundNonce(id, realmOf(this.settings.appUrl), this.keccak.ofText), chainId: terms.chainId });
    if (binding) throw new MppPaymentRejectedError(binding, MISMATCH_TEXT[binding]!);
    const challenge = await this.uow.asSystem((s) => s.mppLedger.findChallenge(id));
    const mismatch = challengeMismatch(challenge, request, now);
    const paid = { signed: credential.signed, binding: { plugin, bodyDigest: request.bodyDigest, amount }, terms, chain: mpp.authorizations };
    if (challenge?.consumed) {
      // only an authorization already recorded (its retry, or its settlement resumed) may come back;
      // the settlement compares signature, plugin, body and price with the record
      const a = credential.signed.authorization;
      const recorded = await this.uow.asSystem((s) => s.authorizationLedger.find({ token: terms.token.toLowerCase() as Hex, payer: a.from, nonce: a.nonce }));
      if (recorded && (mismatch === null || mismatch === 'EXPIRED')) return this.settle.execute(paid);
      throw new MppPaymentRejectedError('CHALLENGE_USED', 'This challenge was already paid and used: ask for a new one');
    }
    if (mismatch) throw new MppPaymentRejectedError(mismatch, MISMATCH_TEXT[mismatch]!);
    const consumedAt = this.clock.now();
    if (!(await this.uow.asSystem((s) => s.mppLedger.consumeChallenge(id, consumedAt)))) {
      throw new MppPaymentRejectedError('CHALLENGE_USED', 'This challenge was already paid and used: ask for a new one');
    }
    try {
      return await this.settle.execute(paid);
    } catch (err) {
      // refused or failed with nothing recorded (nothing signed, nothing moved): the challenge stays payable
      const a = credential.signed.authorization;
      const key = { token: terms.token.toLowerCase() as Hex, payer: a.from, nonce: a.nonce };
      if (!(await this.uow.asSystem((s) => s.authorizationLedger.find(key)))) await this.uow.asSystem((s) => s.mppLedger.releaseChallenge(id, consumedAt));
      throw err;
    }
  }
}
