import { parseAbi } from 'viem';
import type { TokenDomain } from '../../../domain/gateway/gateway-discovery.js';
import type { TokenDomainReader } from '../../../application/ports/token-domain-reader.port.js';
import { rpcClient, rpcRead } from './rpc-client.js';

/** USDC's (FiatToken) way to tell its EIP-712 domain: `name()` and `version()`. */
const DOMAIN_ABI = parseAbi(['function name() view returns (string)', 'function version() view returns (string)']);

/**
 * The token's EIP-712 domain read through viem, once: concurrent first callers share one read, and
 * a failed read is forgotten so the next caller asks again (a node failure is a 502 every time,
 * never a remembered answer).
 */
export class ViemTokenDomainReader implements TokenDomainReader {
  private pending: Promise<TokenDomain> | null = null;

  constructor(
    private readonly rpcUrl: string,
    private readonly timeoutMs: number,
    private readonly token: `0x${string}`,
  ) {}

  read(): Promise<TokenDomain> {
    const client = rpcClient(this.rpcUrl, this.timeoutMs);
    this.pending ??= rpcRead('MPP RPC', async () => {
      const [name, version] = await Promise.all([
        client.readContract({ address: this.token, abi: DOMAIN_ABI, functionName: 'name' }),
        client.readContract({ address: this.token, abi: DOMAIN_ABI, functionName: 'version' }),
      ]);
      return { name, version };
    });
    const pending = this.pending;
    pending.catch(() => {
      if (this.pending === pending) this.pending = null;
    });
    return pending;
  }
}
