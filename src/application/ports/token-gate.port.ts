import type { InjectionToken } from 'tsyringe';

/** What the gate decided for one address. Amounts are decimal strings, never floats. */
export interface TokenGateVerdict {
  hasAccess: boolean;
  /** The least balance, in the token's units as a person reads them (e.g. "1.5"). */
  required: string;
  /** The same least balance as an integer in the token's base units. */
  minBalance: string;
}

/**
 * The token-gating check as social sign-in needs it (the full check with symbol, chain and
 * balance is the token-gating area's). `check` resolves null when no gate is configured
 * (TOKEN_GATE_ADDRESS unset): nothing is gated. It throws UpstreamUnavailableError when the
 * chain cannot be read: "no access" is never presented as a fact it did not read.
 */
export interface TokenGate {
  check(address: string): Promise<TokenGateVerdict | null>;
}
export const TOKEN_GATE: InjectionToken<TokenGate> = Symbol('TokenGate');
