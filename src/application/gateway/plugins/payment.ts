import type { ChatPayment } from '../../ai/chat-metering.js';
import type { GatewayPayer } from '../gateway-plugin.js';

/** The AI layer's view of who pays: the subscriber's grant (metered), or a payment already taken at its level. */
export const chatPayment = (payer: GatewayPayer): ChatPayment =>
  payer.kind === 'metered' ? payer.grant : { prepaid: true, level: payer.level };
