import type { TokenGate } from '../../../application/ports/token-gate.port.js';

/**
 * The gate when none is configured (TOKEN_GATE_ADDRESS unset): nothing is gated, so every
 * address passes unchecked and sign-in reports `tokenGated: false`. The token-gating area's
 * on-chain check replaces this where a gate is configured.
 */
export class UngatedTokenGate implements TokenGate {
  async check(): Promise<null> {
    return null;
  }
}
