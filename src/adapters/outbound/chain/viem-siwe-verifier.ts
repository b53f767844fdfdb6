import { hashMessage, verifyMessage, type PublicClient } from 'viem';
import { verifyHash } from 'viem/actions';
import { parseSiweMessage } from 'viem/siwe';
import { ChainNotConfiguredError } from '../../../domain/identity/identity.errors.js';
import type { SiweFields } from '../../../domain/identity/siwe-rules.js';
import type { SiweVerifier } from '../../../application/ports/siwe-verifier.port.js';
import { rpcRead } from './rpc-client.js';

/**
 * SIWE through viem. With a node: viem's verifyHash, which runs the ERC-6492 universal validator
 * as a deployless eth_call, so one call covers an EOA, a deployed ERC-1271 wallet and an
 * undeployed ERC-6492-wrapped one (it falls back to ECDSA recovery when the node fails, so an EOA
 * still signs in while the node is down; a contract account then gets 502). Without a node only
 * ECDSA recovery is possible: a signature it does not match may be a contract's, so the answer is
 * "not configured" (503), never a guess.
 */
export class ViemSiweVerifier implements SiweVerifier {
  constructor(private readonly client: PublicClient | null) {}

  parse(message: string): SiweFields {
    return parseSiweMessage(message);
  }

  async isSignedBy(p: { message: string; signature: `0x${string}`; address: `0x${string}` }): Promise<boolean> {
    const client = this.client;
    if (!client) {
      if (await verifyMessage(p).catch(() => false)) return true;
      throw new ChainNotConfiguredError('Smart-wallet sign-in (BASE_RPC_URL)');
    }
    return rpcRead('Base RPC node', () => verifyHash(client, { address: p.address, hash: hashMessage(p.message), signature: p.signature }));
  }
}
