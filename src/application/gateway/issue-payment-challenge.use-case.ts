import { inject, injectable } from 'tsyringe';
import type { GatewayPluginId } from '../../domain/gateway/gateway-plugin-id.js';
import { MPP_CHALLENGE_TTL_MS, toBaseUnits } from '../../domain/gateway/mpp.js';
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
  ) {}

  async execute(plugin: GatewayPluginId, input: unknown): Promise<PaymentChallenge> {
    // a challenge offers a prepaid call: never one for a body larger than its price covers
    assertWithinPrepaidBounds(plugin, input, this.settings.prepaid);
    const price = this.settings.prices[plugin];
    const psp = { checkoutUrl: `${this.settings.appUrl}/api/v1/payments/psp/create?plugin=${plugin}`, amount: price, currency: 'usd' as const };
    const mpp = await this.availability.current();
    if (!mpp) return { mpp: null, psp };
    const issuedAt = this.clock.now();
    const expiresAt = new Date(issuedAt.getTime() + MPP_CHALLENGE_TTL_MS);
    const nonce = this.ids.bytes(24).toString('base64url');
    await this.uow.asSystem((s) =>
      s.mppLedger.saveChallenge({
        nonce,
        plugin,
        amount: toBaseUnits(price, mpp.terms.decimals),
        token: mpp.terms.token.toLowerCase(),
        recipient: mpp.terms.recipient.toLowerCase(),
        bodyDigest: requestDigest(input),
        issuedAt,
        expiresAt,
      }),
    );
    return {
      mpp: {
        scheme: 'Payment',
        amount: price,
        currency: mpp.terms.token,
        recipient: mpp.terms.recipient,
        description: `One call of the ${plugin} gateway plugin`,
        nonce,
        expiresAt: expiresAt.getTime(),
      },
      psp,
    };
  }
}
