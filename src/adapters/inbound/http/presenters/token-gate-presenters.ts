import type { TokenGateResult } from '../../../../application/identity/check-token-gate.use-case.js';

/**
 * Token-gating answers, field by field as the spec lists them. `minBalance` is the threshold in the
 * token's base units as a decimal integer string (what balanceOf compares against; docs/decisions/0098-token-gating.md).
 */
export function presentTokenGateCheck(r: TokenGateResult, fid: string, now: Date) {
  return {
    fid,
    address: r.address,
    hasAccess: r.hasAccess,
    tokenGated: r.tokenGated,
    minBalance: r.minBalance.toString(),
    token: r.token,
    chain: r.chain,
    message: r.hasAccess
      ? `Access granted: ${r.address} holds at least ${r.minBalanceDecimal} ${r.token}`
      : `Access denied: ${r.address} holds less than ${r.minBalanceDecimal} ${r.token}`,
    timestamp: now.toISOString(),
  };
}

export function presentTokenGateStatus(r: TokenGateResult) {
  return {
    address: r.address,
    hasAccess: r.hasAccess,
    tokenGated: r.tokenGated,
    minBalance: r.minBalance.toString(),
    token: r.token,
    chain: r.chain,
    contractAddress: r.contractAddress,
    rpcEndpoint: r.rpcEndpoint,
  };
}
