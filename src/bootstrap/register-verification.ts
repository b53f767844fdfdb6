import type { DependencyContainer } from 'tsyringe';
import { VERIFICATION_CHECKS, type AttestationReader, type EnsResolver, type SignatureChecker } from '../application/ports/verification-checks.port.js';
import { GetAgentVerification } from '../application/verification/get-agent-verification.use-case.js';
import { UnverifyAgent } from '../application/verification/unverify-agent.use-case.js';
import { VerifyAgent } from '../application/verification/verify-agent.use-case.js';
import type { Config } from './config.js';
import { lazyAdapter } from './lazy-adapter.js';

/** The chain adapters' modules (viem), loaded on first use (docs/decisions/0470). */
const rpcClient = async (url: string, timeoutMs: number) => (await import('../adapters/outbound/chain/rpc-client.js')).rpcClient(url, timeoutMs);

/**
 * Agent verification: the on-chain checks exist only where their RPC URL is configured (an
 * unset or unreachable RPC never stops the start, CONTRACT.md section 2). Needs AGENT_SETTINGS
 * (registerAgents) and CLOCK first. viem is loaded by the first check that needs it.
 */
export function registerVerification(c: DependencyContainer, config: Config): void {
  const timeout = config.VERIFICATION_RPC_TIMEOUT_MS;
  const { EAS_RPC_URL: easUrl, ENS_RPC_URL: ensUrl } = config;
  const attestations = easUrl
    ? lazyAdapter<AttestationReader, 'read'>(
        async () => new (await import('../adapters/outbound/chain/eas-attestation-reader.js')).EasAttestationReader(await rpcClient(easUrl, timeout), config.EAS_CONTRACT_ADDRESS),
        ['read'],
        // as EasAttestationReader gives it
        { contract: config.EAS_CONTRACT_ADDRESS.toLowerCase() },
      )
    : null;
  const ens = ensUrl
    ? lazyAdapter<EnsResolver, 'resolve'>(
        async () => new (await import('../adapters/outbound/chain/viem-ens-resolver.js')).ViemEnsResolver(await rpcClient(ensUrl, timeout), config.ENS_UNIVERSAL_RESOLVER_ADDRESS),
        ['resolve'],
        {},
      )
    : null;
  const signatures = lazyAdapter<SignatureChecker, 'signerOf'>(async () => new (await import('../adapters/outbound/chain/viem-signature-checker.js')).ViemSignatureChecker(), ['signerOf'], {});
  c.register(VERIFICATION_CHECKS, { useValue: { attestations, ens, signatures } });
  for (const useCase of [GetAgentVerification, VerifyAgent, UnverifyAgent]) c.registerSingleton(useCase as never);
}
