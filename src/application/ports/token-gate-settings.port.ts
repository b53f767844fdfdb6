import type { InjectionToken } from 'tsyringe';

/** Token gating's configuration (CONTRACT.md section 2); unset address or node: not offered (503). */
export interface TokenGateSettings {
  /** TOKEN_GATE_ADDRESS */
  tokenAddress: `0x${string}` | undefined;
  /** TOKEN_GATE_MIN_BALANCE, decimal token units */
  minBalance: string;
  /** BASE_RPC_URL (with its credentials: never shown) */
  rpcUrl: string | undefined;
}

export const TOKEN_GATE_SETTINGS: InjectionToken<TokenGateSettings> = Symbol('TokenGateSettings');
