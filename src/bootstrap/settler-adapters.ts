/**
 * The MPP settler's chain adapters, loaded by buildContainer only when MPP and
 * MPP_SETTLER_PRIVATE_KEY are set: each has a synchronous part (the settler's address, keccak-256)
 * that cannot wait for a first call, and viem is some 0.8 MB a start without them never needs
 * (docs/decisions/0470).
 */
export { ViemTransferAuthorizationChain } from '../adapters/outbound/chain/viem-transfer-authorization-chain.js';
export { viemKeccak256 } from '../adapters/outbound/chain/viem-keccak256.js';
