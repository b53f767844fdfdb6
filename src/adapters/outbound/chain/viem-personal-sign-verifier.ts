import { createPublicClient, custom, hashMessage, http, verifyMessage } from 'viem';
import { verifyHash } from 'viem/actions';
import { ChainNotConfiguredError } from '../../../domain/identity/identity.errors.js';
import type { PersonalSignVerifier } from '../../../application/ports/personal-sign-verifier.port.js';
import { UpstreamUnavailableError } from '../../../application/errors.js';
import { rpcRead } from './rpc-client.js';

/**
 * EIP-191 signatures through viem. With a node: viem's verifyHash, which runs the ERC-6492
 * universal validator as a deployless eth_call, so one call covers an EOA, a deployed ERC-1271
 * wallet and an undeployed ERC-6492-wrapped one (it falls back to ECDSA recovery when the call
 * fails, so an EOA's signature still checks while the node is down). Without a node only ECDSA
 * recovery is possible: a signature it does not match may be a contract's, so the answer is "not
 * configured" (503), never a guess.
 *
 * verifyHash reads any failed eth_call as "not signed", a node that timed out included. So the
 * node is reached through a transport that notes failures of the node itself (refused, timed out,
 * HTTP error, any JSON-RPC error but an execution revert, e.g. a provider's rate limit), and a "no"
 * that follows one is a 502, never a refusal presented as fact. A revert is the contract's answer.
 */
export class ViemPersonalSignVerifier implements PersonalSignVerifier {
  constructor(
    private readonly node: { url: string; timeoutMs: number } | null,
    /** How the node is named in a 502 and in the logs. */
    private readonly upstream: string,
    /** What needs the node, named in the 503 when none is configured. */
    private readonly feature: string,
  ) {}

  async isSignedBy(p: { message: string; signature: `0x${string}`; address: `0x${string}` }): Promise<boolean> {
    if (!this.node) {
      if (await verifyMessage(p).catch(() => false)) return true;
      throw new ChainNotConfiguredError(this.feature);
    }
    const inner = http(this.node.url, { timeout: this.node.timeoutMs, retryCount: 0 })({ retryCount: 0 });
    let nodeFailed = false;
    const transport = custom(
      {
        async request(args: { method: string; params?: unknown }) {
          try {
            return await inner.request(args as never);
          } catch (err) {
            if (!isExecutionRevert(err)) nodeFailed = true;
            throw err;
          }
        },
      },
      { retryCount: 0 },
    );
    const client = createPublicClient({ transport, cacheTime: 0, batch: { multicall: false } });
    const signed = await rpcRead(this.upstream, () => verifyHash(client, { address: p.address, hash: hashMessage(p.message), signature: p.signature }));
    if (!signed && nodeFailed) throw new UpstreamUnavailableError(this.upstream, `${this.upstream} did not answer`);
    return signed;
  }
}

/** The contract answered by reverting (JSON-RPC code 3, or a node that only says so in words). */
function isExecutionRevert(err: unknown): boolean {
  const e = err as { code?: number; details?: string; shortMessage?: string; message?: string };
  return e.code === 3 || /revert/i.test(`${e.details ?? ''} ${e.shortMessage ?? ''} ${e.message ?? ''}`);
}
