import type { SiweFields } from '../../../domain/identity/siwe-rules.js';
import type { SiweVerifier } from '../../../application/ports/siwe-verifier.port.js';
import { ViemPersonalSignVerifier } from './viem-personal-sign-verifier.js';
import { parseSiwe } from './siwe-message-parser.js';

/**
 * SIWE through viem: the message's fields by viem's parser, its signature checked on the Base
 * node (BASE_RPC_URL) for an EOA, an ERC-1271 or an ERC-6492 wallet (ViemPersonalSignVerifier).
 */
export class ViemSiweVerifier extends ViemPersonalSignVerifier implements SiweVerifier {
  constructor(node: { url: string; timeoutMs: number } | null) {
    super(node, 'Base RPC node', 'Smart-wallet sign-in (BASE_RPC_URL)');
  }

  parse(message: string): SiweFields {
    return parseSiwe(message);
  }
}
