import { createPublicClient, http, type PublicClient } from 'viem';
import { UpstreamUnavailableError } from '../../../application/errors.js';

/**
 * A read-only client of one RPC node: every request bounded by `timeoutMs`, no retries (a retry
 * would multiply the caller's wait), nothing cached (a revocation is seen by the next read).
 */
export const rpcClient = (url: string, timeoutMs: number): PublicClient =>
  createPublicClient({ transport: http(url, { timeout: timeoutMs, retryCount: 0 }), cacheTime: 0, batch: { multicall: false } }) as PublicClient;

/**
 * Runs one RPC read; any failure of the node (refused, timed out, reverted, undecodable) is a 502.
 * The logged cause is viem's short message only: its full message quotes the node's URL, which
 * often carries an API key.
 */
export async function rpcRead<T>(upstream: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    const e = err as { name?: string; shortMessage?: string };
    const summary = `${e.name ?? 'Error'}: ${e.shortMessage ?? 'failed'}`;
    throw new UpstreamUnavailableError(upstream, `${upstream} did not answer (${e.name ?? 'error'})`, new Error(summary));
  }
}
