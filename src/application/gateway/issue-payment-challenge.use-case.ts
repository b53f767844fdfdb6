import { inject, injectable } from 'tsyringe';
import type { GatewayPluginId } from '../../domain/gateway/gateway-plugin-id.js';
import { MPP_CHALLENGE_TTL_MS, toBaseUnits } from '../../domain/gateway/mpp.js';
import type { X402Offer } from '../../domain/gateway/x402.js';
import { realmOf, type MppEvmOffer } from '../../domain/gateway/mpp-evm.js';
import { UpstreamUnavailableError } from '../errors.js';
import { LOGGER, type Logger } from '../ports/logger.port.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';
import type { GatewaySystemScope } from '../ports/scopes/gateway-scope.port.js';
import { ID_GENERATOR, type IdGenerator } from '../ports/id-generator.port.js';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../ports/gateway-settings.port.js';
import { MPP_AVAILABILITY, type MppAvailability } from '../ports/mpp-availability.port.js';
import { assertWithinPrepaidBounds } from './prepaid-call-bounds.js';
import { requestDigest } from './request-digest.js';

/** The spec's MPP challenge object (under `mpp` in a 402 body). */
export interface MppChallenge {
  readonly scheme: 'Payment';
  /** Decimal token units, as priced (MPP_PRICE_<PLUGIN>). */
  readonly amount: string;
  /** The token contract's address. */
  readonly currency: `0x${string}`;
  readonly recipient: `0x${string}`;
  readonly description: string;
  readonly nonce: string;
  /** Epoch milliseconds. */
  readonly expiresAt: number;
}

export interface PaymentChallenge {
  /** Null when MPP is not offered (not configured, its chain mismatched, or its RPC silent). */
  readonly mpp: MppChallenge | null;
  /**
   * The x402 `exact` offer of the same price (`PAYMENT-REQUIRED`): only with MPP, a settler
   * (MPP_SETTLER_PRIVATE_KEY) and the token's EIP-712 domain read from the chain.
   */
  readonly x402: X402Offer | null;
  /**
   * MPP's `evm` charge of the same stored challenge, for mppx (its params in `WWW-Authenticate`,
   * decision 0435): only with MPP and a settler (MPP_SETTLER_PRIVATE_KEY).
   */
  readonly mppEvm: MppEvmOffer | null;
  readonly psp: { readonly checkoutUrl: string; readonly amount: string; readonly currency: 'usd' };
}

/**
 * What a 402 at the gateway offers: a one-off processor checkout, and, when MPP is offered, an
 * on-chain challenge stored (system unit of work) with its nonce, amount in base units, token,
 * recipient, plugin and the digest of the exact input the plugin would receive.
 */
@injectable()
export class IssuePaymentChallenge {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemWork<GatewaySystemScope, 'mppLedger'>,
    @inject(GATEWAY_SETTINGS) private readonly settings: GatewaySettings,
    @inject(MPP_AVAILABILITY) private readonly availability: MppAvailability,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @inject(LOGGER) private readonly log: Logger,
  ) {}

  async execute(plugin: GatewayPluginId, input: unknown): Promise<PaymentChallenge> {
    // a challenge offers a prepaid call: never one for a body larger than its price covers
    assertWithinPrepaidBounds(plugin, input, this.settings.prepaid);
    const price = this.settings.prices[plugin];
    const psp = { checkoutUrl: `${this.settings.appUrl}/api/v1/payments/psp/create?plugin=${plugin}`, amount: price, currency: 'usd' as const };
    const mpp = await this.availability.current();
    if (!mpp) return { mpp: null, x402: null, mppEvm: null, psp };
    const amount = toBaseUnits(price, mpp.terms.decimals);
    const issuedAt = this.clock.now();
    const expiresAt = new Date(issuedAt.getTime() + MPP_CHALLENGE_TTL_MS);
    const nonce = this.ids.bytes(24).toString('base64url');
    await this.uow.asSystem((s) =>
      s.mppLedger.saveChallenge({
        nonce,
        plugin,
        amount,
        token: mpp.terms.token.toLowerCase(),
        recipient: mpp.terms.recipient.toLowerCase(),
        bodyDigest: requestDigest(input),
        issuedAt,
        expiresAt,
      }),
    );
    const description = `One call of the ${plugin} gateway plugin`;
    let x402: X402Offer | null = null;
    if (mpp.authorizations) {
      try {
        const domain = await mpp.authorizations.domain(mpp.terms.token);
        x402 = { chainId: mpp.terms.chainId, token: mpp.terms.token, recipient: mpp.terms.recipient, amount, domain, resourceUrl: `${this.settings.appUrl}/api/v1/gateway`, description };
      } catch (err) {
        // the spec's challenge is still offered; x402's waits for the token's domain to be read
        if (!(err instanceof UpstreamUnavailableError)) throw err;
        this.log.warn({ err: err.message }, 'the MPP token\'s EIP-712 domain could not be read: no PAYMENT-REQUIRED this time');
      }
    }
    // the challenge's id is its nonce: an mppx authorization binds it (keccak256(id + realm)) and names it
    const mppEvm: MppEvmOffer | null = mpp.authorizations
      ? { id: nonce, realm: realmOf(this.settings.appUrl), amount, token: mpp.terms.token, recipient: mpp.terms.recipient, chainId: mpp.terms.chainId, decimals: mpp.terms.decimals, description, expiresAt }
      : null;
    return {
      x402,
      mppEvm,
      mpp: {
        scheme: 'Payment',
        amount: price,
        currency: mpp.terms.token,
        recipient: mpp.terms.recipient,
        description,
        nonce,
        expiresAt: expiresAt.getTime(),
      },
      psp,
    };
  }
}
