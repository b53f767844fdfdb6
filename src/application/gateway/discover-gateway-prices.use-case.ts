import { inject, injectable } from 'tsyringe';
import { GATEWAY_PLUGIN_IDS, type GatewayPluginId } from '../../domain/gateway/gateway-plugin-id.js';
import { discoveryDocument, type DiscoveryPage } from '../../domain/gateway/gateway-discovery.js';
import { toBaseUnits } from '../../domain/gateway/mpp.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../ports/gateway-settings.port.js';
import { MPP_AVAILABILITY, type MppAvailability } from '../ports/mpp-availability.port.js';

export type GatewayDiscovery = ReturnType<typeof discoveryDocument>;

/**
 * The gateway's prices for agent wallets, without a failed call first (decision 0436): each plugin
 * with its price, asset, network and recipient while MPP is offered (configured, and its node
 * serves MPP_CHAIN_ID), none otherwise. With a settler (MPP_SETTLER_PRIVATE_KEY), each also offers
 * x402's `exact` requirement with the token's EIP-712 domain read from the chain (once, by
 * TransferAuthorizationChain); a node that fails then is a 502. `lastUpdated` is when this process
 * took its prices.
 */
@injectable()
export class DiscoverGatewayPrices {
  private readonly since: number;

  constructor(
    @inject(GATEWAY_SETTINGS) private readonly settings: GatewaySettings,
    @inject(MPP_AVAILABILITY) private readonly availability: MppAvailability,
    @inject(CLOCK) clock: Clock,
  ) {
    this.since = Math.floor(clock.now().getTime() / 1000);
  }

  async execute(page: DiscoveryPage): Promise<GatewayDiscovery> {
    const mpp = await this.availability.current();
    if (!mpp) return discoveryDocument(null, page);
    const { terms } = mpp;
    const prices = Object.fromEntries(
      GATEWAY_PLUGIN_IDS.map((p) => [p, { decimal: this.settings.prices[p], baseUnits: toBaseUnits(this.settings.prices[p], terms.decimals) }]),
    ) as Record<GatewayPluginId, { decimal: string; baseUnits: bigint }>;
    // x402's `exact` offer only where the gateway settles it; the domain is read once by the chain port
    const domain = mpp.authorizations ? await mpp.authorizations.domain(terms.token) : null;
    return discoveryDocument(
      {
        resource: `${this.settings.appUrl}/api/v1/gateway`,
        chainId: terms.chainId,
        token: terms.token,
        recipient: terms.recipient,
        decimals: terms.decimals,
        prices,
        domain,
        lastUpdated: this.since,
      },
      page,
    );
  }
}
