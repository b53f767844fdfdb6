import type { PublicClient } from 'viem';
import { normalize } from 'viem/ens';
import { InvalidInputError } from '../../../application/errors.js';
import type { EnsResolver } from '../../../application/ports/verification-checks.port.js';
import { rpcRead } from './rpc-client.js';

/** ENS names resolved through the universal resolver at `universalResolver` (viem's getEnsAddress). */
export class ViemEnsResolver implements EnsResolver {
  constructor(
    private readonly client: PublicClient,
    private readonly universalResolver: `0x${string}`,
  ) {}

  async resolve(name: string): Promise<string | null> {
    let normalized: string;
    try {
      normalized = normalize(name);
    } catch {
      throw new InvalidInputError('VALIDATION_ERROR', 'ensName is not a valid ENS name', { details: [{ path: 'body/ensName', message: 'is not a valid ENS name' }] });
    }
    // not strict: a name with no resolver or no address answers null; a node that fails still throws (502)
    const address = await rpcRead('ENS RPC', () => this.client.getEnsAddress({ name: normalized, universalResolverAddress: this.universalResolver }));
    return address === null ? null : address.toLowerCase();
  }
}
