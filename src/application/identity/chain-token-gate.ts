import type { TokenGate, TokenGateVerdict } from '../ports/token-gate.port.js';
import type { CheckTokenGate } from './check-token-gate.use-case.js';

/**
 * Social sign-in's gate, read on chain through the token-gating check: the same balance, the
 * same threshold and the same failures (an unreadable chain is a 502, never "no access").
 */
export class ChainTokenGate implements TokenGate {
  constructor(private readonly gate: () => CheckTokenGate) {}

  async check(address: string): Promise<TokenGateVerdict> {
    const r = await this.gate().execute(address as `0x${string}`);
    return { hasAccess: r.hasAccess, required: r.minBalanceDecimal, minBalance: r.minBalance.toString() };
  }
}
