import { parseSiweMessage } from 'viem/siwe';
import type { SiweFields } from '../../../domain/identity/siwe-rules.js';

/**
 * An EIP-4361 message's fields by viem's parser: one function of regular expressions that imports
 * nothing else of viem, so it is bundled at start while the verifiers that need the rest of viem
 * load on first use (docs/decisions/0470).
 */
export const parseSiwe = (message: string): SiweFields => parseSiweMessage(message);
