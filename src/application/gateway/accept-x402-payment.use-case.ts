import { inject, injectable } from 'tsyringe';
import type { GatewayPluginId } from '../../domain/gateway/gateway-plugin-id.js';
import { toBaseUnits } from '../../domain/gateway/mpp.js';
import { parseX402Payment, X402_OFFER_MISMATCH_TEXT, x402OfferMismatch } from '../../domain/gateway/x402.js';
import { MppPaymentRejectedError } from '../errors.js';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../ports/gateway-settings.port.js';
import { MPP_AVAILABILITY, type MppAvailability } from '../ports/mpp-availability.port.js';
import { assertWithinPrepaidBounds } from './prepaid-call-bounds.js';
import { requestDigest } from './request-digest.js';
import { SettleTransferAuthorization, type SettledAuthorization } from './settle-transfer-authorization.use-case.js';

const decodeBase64 = (text: string) => Buffer.from(text, 'base64').toString('utf8');

/**
 * An x402 version 2 `exact` payment (`PAYMENT-SIGNATURE`, or `X-PAYMENT`) for this call
 * (CONTRACT.md "standard payment clients on the gateway", decision 0430): the envelope read, the
 * offer it accepted compared with this gateway's (scheme, network, token), then the authorization
 * settled for this plugin, body and price by SettleTransferAuthorization. Refusals are
 * MppPaymentRejectedError (402 with a fresh offer and the reason).
 */
@injectable()
export class AcceptX402Payment {
  constructor(
    @inject(GATEWAY_SETTINGS) private readonly settings: GatewaySettings,
    @inject(MPP_AVAILABILITY) private readonly availability: MppAvailability,
    @inject(SettleTransferAuthorization) private readonly settle: SettleTransferAuthorization,
  ) {}

  async execute(header: string, plugin: GatewayPluginId, input: unknown): Promise<SettledAuthorization & { chainId: number }> {
    assertWithinPrepaidBounds(plugin, input, this.settings.prepaid);
    const mpp = await this.availability.current();
    if (!mpp?.authorizations) throw new MppPaymentRejectedError('X402_UNAVAILABLE', 'x402 payments are not offered right now');
    const payment = parseX402Payment(header, decodeBase64);
    if (!payment) throw new MppPaymentRejectedError('CREDENTIAL_INVALID', 'The PAYMENT-SIGNATURE header could not be read as an x402 version 2 exact EVM payment');
    const mismatch = x402OfferMismatch(payment, mpp.terms);
    if (mismatch) throw new MppPaymentRejectedError(mismatch, X402_OFFER_MISMATCH_TEXT[mismatch]);
    const binding = { plugin, bodyDigest: requestDigest(input), amount: toBaseUnits(this.settings.prices[plugin], mpp.terms.decimals) };
    const settled = await this.settle.execute({ signed: payment.signed, binding, terms: mpp.terms, chain: mpp.authorizations });
    return { ...settled, chainId: mpp.terms.chainId };
  }
}
