import { keccak256, stringToHex } from 'viem';
import type { Keccak256 } from '../../../application/ports/keccak256.port.js';

/** viem's keccak-256 (@noble/hashes underneath). */
export const viemKeccak256: Keccak256 = { ofText: (text) => keccak256(stringToHex(text)) };
