import type { DependencyContainer } from 'tsyringe';
import { parseSiwe } from '../adapters/outbound/chain/siwe-message-parser.js';
import { CheckTokenGate } from '../application/identity/check-token-gate.use-case.js';
import { IssueWalletNonce } from '../application/identity/issue-wallet-nonce.use-case.js';
import { SignInWithWallet } from '../application/identity/sign-in-with-wallet.use-case.js';
import { TOKEN_GATE_SETTINGS } from '../application/ports/token-gate-settings.port.js';
import { SIWE_VERIFIER, type SiweVerifier } from '../application/ports/siwe-verifier.port.js';
import { TOKEN_GATE_READER, type TokenGateReader } from '../application/ports/token-gate-reader.port.js';
import type { Config } from './config.js';
import { lazyAdapter } from './lazy-adapter.js';

/**
 * Wallet sign-in (SIWE) and token gating, both on BASE_RPC_URL, each call bounded by
 * VERIFICATION_RPC_TIMEOUT_MS. An unset node never stops the start: EOAs still sign in, smart
 * wallets and token gating answer 503. Needs CLOCK, UNIT_OF_WORK and AUTH_SETTINGS first. viem
 * is loaded by the first signature or balance checked (docs/decisions/0470); a message is parsed without it.
 */
export function registerWalletSignIn(c: DependencyContainer, config: Config): void {
  const { BASE_RPC_URL: url, VERIFICATION_RPC_TIMEOUT_MS: timeoutMs } = config;
  const siwe = lazyAdapter<SiweVerifier, 'isSignedBy'>(
    async () => new (await import('../adapters/outbound/chain/viem-siwe-verifier.js')).ViemSiweVerifier(url ? { url, timeoutMs } : null),
    ['isSignedBy'],
    { parse: parseSiwe },
  );
  c.register(SIWE_VERIFIER, { useValue: siwe });
  const gate = lazyAdapter<TokenGateReader, 'token' | 'balanceOf'>(
    async () => {
      const [{ ViemTokenGateReader }, { rpcClient }] = await Promise.all([import('../adapters/outbound/chain/viem-token-gate-reader.js'), import('../adapters/outbound/chain/rpc-client.js')]);
      return new ViemTokenGateReader(url ? rpcClient(url, timeoutMs) : null, config.TOKEN_GATE_ADDRESS as `0x${string}` | undefined);
    },
    ['token', 'balanceOf'],
    {},
  );
  c.register(TOKEN_GATE_READER, { useValue: gate });
  c.register(TOKEN_GATE_SETTINGS, {
    useValue: { tokenAddress: config.TOKEN_GATE_ADDRESS as `0x${string}` | undefined, minBalance: config.TOKEN_GATE_MIN_BALANCE, rpcUrl: config.BASE_RPC_URL },
  });
  for (const useCase of [IssueWalletNonce, SignInWithWallet, CheckTokenGate]) c.registerSingleton(useCase as never);
}
