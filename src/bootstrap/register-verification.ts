import type { DependencyContainer } from 'tsyringe';
import { EasAttestationReader } from '../adapters/outbound/chain/eas-attestation-reader.js';
import { rpcClient } from '../adapters/outbound/chain/rpc-client.js';
import { ViemEnsResolver } from '../adapters/outbound/chain/viem-ens-resolver.js';
import { ViemSignatureChecker } from '../adapters/outbound/chain/viem-signature-checker.js';
import { VERIFICATION_CHECKS } from '../application/ports/verification-checks.port.js';
import { GetAgentVerification } from '../application/verification/get-agent-verification.use-case.js';
import { UnverifyAgent } from '../application/verification/unverify-agent.use-case.js';
import { VerifyAgent } from '../application/verification/verify-agent.use-case.js';
import type { Config } from './config.js';

/**
 * Agent verification: the on-chain checks exist only where their RPC URL is configured (an
 * unset or unreachable RPC never stops the start, CONTRACT.md section 2). Needs AGENT_SETTINGS
 * (registerAgents) and CLOCK first.
 */
export function registerVerification(c: DependencyContainer, config: Config): void {
  const timeout = config.VERIFICATION_RPC_TIMEOUT_MS;
  c.register(VERIFICATION_CHECKS, {
    useValue: {
      attestations: config.EAS_RPC_URL ? new EasAttestationReader(rpcClient(config.EAS_RPC_URL, timeout), config.EAS_CONTRACT_ADDRESS) : null,
      ens: config.ENS_RPC_URL ? new ViemEnsResolver(rpcClient(config.ENS_RPC_URL, timeout), config.ENS_UNIVERSAL_RESOLVER_ADDRESS) : null,
      signatures: new ViemSignatureChecker(),
    },
  });
  for (const useCase of [GetAgentVerification, VerifyAgent, UnverifyAgent]) c.registerSingleton(useCase as never);
}
