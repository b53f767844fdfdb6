import { recoverMessageAddress, verifyMessage } from 'viem';
import type { SignatureChecker } from '../../../application/ports/verification-checks.port.js';

/**
 * EIP-191 personal-message signatures of externally owned accounts, checked by ECDSA recovery:
 * no network. A smart-contract wallet's signature (ERC-1271, ERC-6492) is not accepted (docs/decisions/0077-agent-verification.md).
 * A malformed signature is simply not the wallet's.
 */
export class ViemSignatureChecker implements SignatureChecker {
  async signerOf(p: { message: string; signature: string; claimed: string | null }): Promise<string | null> {
    const signature = p.signature as `0x${string}`;
    try {
      if (p.claimed !== null) return (await verifyMessage({ address: p.claimed as `0x${string}`, message: p.message, signature })) ? p.claimed.toLowerCase() : null;
      return (await recoverMessageAddress({ message: p.message, signature })).toLowerCase();
    } catch {
      return null;
    }
  }
}
