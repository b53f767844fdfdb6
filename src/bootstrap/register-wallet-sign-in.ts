import type { DependencyContainer } from 'tsyringe';
import { rpcClient } from '../adapters/outbound/chain/rpc-client.js';
import { ViemSiweVerifier } from '../adapters/outbound/chain/viem-siwe-verifier.js';
import { ViemTokenGateReader } from '../adapters/outbound/chain/viem-token-gate-reader.js';
import { CheckTokenGate } from '../application/identity/check-token-gate.use-case.js';
import { IssueWalletNonce } from '../application/identity/issue-wallet-nonce.use-case.js';
import { SignInWithWallet } from '../application/identity/sign-in-with-wallet.use-case.js';
import { TOKEN_GATE_SETTINGS } from '../application/ports/token-gate-settings.port.js';
import { SIWE_VERIFIER } from '../application/ports/siwe-verifier.port.js';
import { TOKEN_GATE_READER } from '../application/ports/token-gate-reader.port.js';
import type { Config } from './config.js';

/**
 * Wallet sign-in (SIWE) and token gating, both on BASE_RPC_URL, each call bounded by
 * VERIFICATION_RPC_TIMEOUT_MS. An unset node never stops the start: EOAs still sign in, smart
 * wallets and token gating answer 503. Needs CLOCK, UNIT_OF_WORK and AUTH_SETTINGS first.
 */
export function registerWalletSignIn(c: DependencyContainer, config: Config): void {
  const client = config.BASE_RPC_URL ? rpcClient(config.BASE_RPC_URL, config.VERIFICATION_RPC_TIMEOUT_MS) : null;
  c.register(SIWE_VERIFIER, { useValue: new ViemSiweVerifier(config.BASE_RPC_URL ? { url: config.BASE_RPC_URL, timeoutMs: config.VERIFICATION_RPC_TIMEOUT_MS } : null) });
  c.register(TOKEN_GATE_READER, { useValue: new ViemTokenGateReader(client, config.TOKEN_GATE_ADDRESS as `0x${string}` | undefined) });
  c.register(TOKEN_GATE_SETTINGS, {
    useValue: { tokenAddress: config.TOKEN_GATE_ADDRESS as `0x${string}` | undefined, minBalance: config.TOKEN_GATE_MIN_BALANCE, rpcUrl: config.BASE_RPC_URL },
  });
  for (const useCase of [IssueWalletNonce, SignInWithWallet, CheckTokenGate]) c.registerSingleton(useCase as never);
}
