import type { InjectionToken } from 'tsyringe';

/** The gating ERC-20 on Base, read through the configured node. */
export interface TokenGateReader {
  /** The token's symbol and decimals (read once; they do not change). */
  token(): Promise<{ symbol: string; decimals: number }>;
  /** balanceOf(address) in base units, possibly a few seconds old. */
  balanceOf(address: `0x${string}`): Promise<bigint>;
}
export const TOKEN_GATE_READER: InjectionToken<TokenGateReader> = Symbol('TokenGateReader');
