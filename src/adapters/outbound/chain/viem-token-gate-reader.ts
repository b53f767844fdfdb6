import { erc20Abi, type PublicClient } from 'viem';
import { ChainNotConfiguredError } from '../../../domain/identity/identity.errors.js';
import type { TokenGateReader } from '../../../application/ports/token-gate-reader.port.js';
import { rpcRead } from './rpc-client.js';

/** Balances are read again after this long: a fresh purchase counts within half a minute. */
export const BALANCE_CACHE_MS = 30_000;
/** Bounds the cache of a public endpoint: past this, the oldest entries go first. */
const MAX_CACHED = 10_000;

/**
 * The gating ERC-20 read through viem: symbol and decimals once (a failed read is not kept, so
 * the next request tries again), balances cached for BALANCE_CACHE_MS per address. Only successful
 * reads are cached: a node failure is a 502 every time, never a remembered zero.
 */
export class ViemTokenGateReader implements TokenGateReader {
  private meta: Promise<{ symbol: string; decimals: number }> | null = null;
  private readonly balances = new Map<string, { value: bigint; until: number }>();

  constructor(
    private readonly client: PublicClient | null,
    private readonly token_: `0x${string}` | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  token(): Promise<{ symbol: string; decimals: number }> {
    const { client, address } = this.target();
    this.meta ??= rpcRead('Base RPC node', async () => {
      const [symbol, decimals] = await Promise.all([
        client.readContract({ address, abi: erc20Abi, functionName: 'symbol' }),
        client.readContract({ address, abi: erc20Abi, functionName: 'decimals' }),
      ]);
      return { symbol, decimals };
    });
    const meta = this.meta;
    meta.catch(() => {
      if (this.meta === meta) this.meta = null;
    });
    return meta;
  }

  async balanceOf(holder: `0x${string}`): Promise<bigint> {
    const { client, address } = this.target();
    const key = holder.toLowerCase();
    const hit = this.balances.get(key);
    if (hit && hit.until > this.now()) return hit.value;
    const value = await rpcRead('Base RPC node', () => client.readContract({ address, abi: erc20Abi, functionName: 'balanceOf', args: [holder] }));
    this.balances.delete(key);
    if (this.balances.size >= MAX_CACHED) this.balances.delete(this.balances.keys().next().value!);
    this.balances.set(key, { value, until: this.now() + BALANCE_CACHE_MS });
    return value;
  }

  private target(): { client: PublicClient; address: `0x${string}` } {
    if (!this.client || !this.token_) throw new ChainNotConfiguredError('Token gating');
    return { client: this.client, address: this.token_ };
  }
}
