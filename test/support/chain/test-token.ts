import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createWalletClient, http, type Abi, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { base } from 'viem/chains';
import type { LocalChain } from './local-chain.js';

const ARTIFACT = JSON.parse(readFileSync(join(import.meta.dirname, 'contracts.json'), 'utf8')).contracts.TestERC20 as { abi: Abi; bytecode: Hex };

export interface TestToken {
  address: Address;
  abi: Abi;
}

/** Deploys TestERC20 (6 decimals, like USDC) on the local chain. */
export async function deployTestToken(chain: LocalChain, symbol = 'TUSD'): Promise<TestToken> {
  const hash = await chain.client.deployContract({ abi: ARTIFACT.abi, bytecode: ARTIFACT.bytecode, args: [`Test ${symbol}`, symbol, 6] });
  const receipt = await chain.client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  return { address: receipt.contractAddress!, abi: ARTIFACT.abi };
}

/** A fresh funded account holding `tokens` of each token, able to pay with them. */
export async function fundedPayer(chain: LocalChain, tokens: TestToken[], amount: bigint) {
  const account = privateKeyToAccount(generatePrivateKey());
  await chain.client.test.setBalance({ address: account.address, value: 10n ** 20n });
  for (const t of tokens) await chain.write(t, 'mint', [account.address, amount]);
  const wallet = createWalletClient({ account, chain: base, transport: http(chain.rpcUrl), cacheTime: 0, pollingInterval: 50 });
  /** Sends one call of the token from this payer; resolves with the mined transaction's hash. */
  const send = async (token: TestToken, functionName: string, args: readonly unknown[]): Promise<Hex> => {
    // a fixed gas limit: estimation would refuse to send a transaction that reverts
    const hash = await wallet.writeContract({ address: token.address, abi: token.abi, functionName, args, gas: 200_000n } as never);
    await chain.client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    return hash;
  };
  return {
    address: account.address,
    /** EIP-191 personal_sign of `message` by this payer (an MPP credential signs its challenge nonce so). */
    sign: (message: string): Promise<Hex> => account.signMessage({ message }),
    transfer: (token: TestToken, to: Address, value: bigint) => send(token, 'transfer', [to, value]),
    transferMany: (token: TestToken, to: Address[], values: bigint[]) => send(token, 'transferMany', [to, values]),
    transferThenRevert: (token: TestToken, to: Address, value: bigint) => send(token, 'transferThenRevert', [to, value]),
    approve: (token: TestToken, spender: Address, value: bigint) => send(token, 'approve', [spender, value]),
    /** One transaction paying `to` from several holders who approved this account (as a payment router does). */
    transferFromMany: (token: TestToken, from: Address[], to: Address, values: bigint[]) => send(token, 'transferFromMany', [from, to, values]),
  };
}
