import { inject, injectable } from 'tsyringe';
import { GATEWAY_PLUGIN_IDS, type GatewayPluginId } from '../../domain/gateway/gateway-plugin-id.js';
import { discoveryDocument, type DiscoveryPage } from '../../domain/gateway/gateway-discovery.js';
import { toBaseUnits } from '../../domain/gateway/mpp.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../ports/gateway-settings.port.js';
import { MPP_AVAILABILITY, type MppAvailability } from '../ports/mpp-availability.port.js';
import { TOKEN_DOMAIN_READER, type TokenDomainReader } from '../ports/token-domain-reader.port.js';

export type GatewayDiscovery = ReturnType<typeof discoveryDocument>;

/**
 * The gateway's prices for agent wallets, without a failed call first (decision 0436): each plugin
 * with its price, asset, network and recipient while MPP is offered (configured, and its node
 * serves MPP_CHAIN_ID), none otherwise. The token's EIP-712 domain is read from the chain (once);
 * a node that fails then is a 502. `lastUpdated` is when this process took its prices.
 */
@injectable()
export class DiscoverGatewayPrices {
  private readonly since: number;

  constructor(
    @inject(GATEWAY_SETTINGS) private readonly settings: GatewaySettings,
    @inject(MPP_AVAILABILITY) private readonly availability: MppAvailability,
    @inject(TOKEN_DOMAIN_READER) private readonly domains: TokenDomainReader,
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
    const domain = await this.domains.read();
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
