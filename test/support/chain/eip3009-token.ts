import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSignature, toHex, type Abi, type Address, type Hex, type LocalAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { LocalChain } from './local-chain.js';

const ARTIFACT = JSON.parse(readFileSync(join(import.meta.dirname, 'contracts.json'), 'utf8')).contracts.TestEIP3009Token as { abi: Abi; bytecode: Hex };

export interface Eip3009Token {
  address: Address;
  abi: Abi;
  /** The EIP-712 domain name (the token's `name()`); the version is always "2", as USDC's. */
  name: string;
}

/** What a payer signs: EIP-3009's TransferWithAuthorization message. */
export interface TransferAuthorization {
  from: Address;
  to: Address;
  value: bigint;
  validAfter: bigint;
  validBefore: bigint;
  nonce: Hex;
}

export const TRANSFER_WITH_AUTHORIZATION_TYPES = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const;

/**
 * Deploys TestEIP3009Token (USDC's EIP-3009 interface, 6 decimals, EIP-712 version "2") on the
 * local chain, compiled by solc-js into contracts.json.
 */
export async function deployEip3009Token(chain: LocalChain, name = 'USD Coin', symbol = 'USDC'): Promise<Eip3009Token> {
  const hash = await chain.client.deployContract({ abi: ARTIFACT.abi, bytecode: ARTIFACT.bytecode, args: [name, symbol] });
  const receipt = await chain.client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  return { address: receipt.contractAddress!, abi: ARTIFACT.abi, name };
}

/** Signs a TransferWithAuthorization for `token` on chain 8453 with `account` (an EOA, or the owner of a smart wallet). */
export function signTransferAuthorization(account: LocalAccount, token: Eip3009Token, message: TransferAuthorization): Promise<Hex> {
  return account.signTypedData({
    domain: { name: token.name, version: '2', chainId: 8453, verifyingContract: token.address },
    types: TRANSFER_WITH_AUTHORIZATION_TYPES,
    primaryType: 'TransferWithAuthorization',
    message,
  });
}

/** A fresh random 32-byte authorization nonce, as clients make them. */
export const randomAuthorizationNonce = (): Hex => toHex(crypto.getRandomValues(new Uint8Array(32)));

/** A fresh account holding `amount` of the token (and no ether: authorizations need none). */
export async function eip3009Payer(chain: LocalChain, token: Eip3009Token, amount: bigint) {
  const account = privateKeyToAccount(generatePrivateKey());
  await chain.write(token, 'mint', [account.address, amount]);
  return {
    account,
    address: account.address,
    /** An authorization paying `to` `value`, valid from a minute ago for `seconds`. */
    async authorize(to: Address, value: bigint, seconds = 300, override: Partial<TransferAuthorization> = {}) {
      const now = BigInt(Math.floor(Date.now() / 1000));
      const message: TransferAuthorization = {
        from: account.address,
        to,
        value,
        validAfter: now - 60n,
        validBefore: now + BigInt(seconds),
        nonce: randomAuthorizationNonce(),
        ...override,
      };
      const signature = await signTransferAuthorization(account, token, message);
      return { message, signature, vrs: parseSignature(signature) };
    },
  };
}
