import type { ChatPayment } from '../../ai/chat-metering.js';
import type { GatewayPayer } from '../../ports/gateway-plugin.port.js';
import type { GatewaySettings } from '../../ports/gateway-settings.port.js';

/** The AI layer's view of who pays: the subscriber's grant (metered), or a payment already taken at its level. */
export const chatPayment = (payer: GatewayPayer): ChatPayment =>
  payer.kind === 'metered' ? payer.grant : { prepaid: true, level: payer.level };

/** A prepaid payer's answer is bounded (the edge refused asking for more); a metered one asks what it likes. */
export const maxTokensFor = (payer: GatewayPayer, asked: number | undefined, settings: GatewaySettings): number | undefined =>
  payer.kind === 'prepaid' ? Math.min(asked ?? settings.prepaid.maxTokens, settings.prepaid.maxTokens) : asked;
