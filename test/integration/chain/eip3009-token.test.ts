import { hashDomain, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { beforeAll, describe, expect, it } from 'vitest';
import { deployEip3009Token, eip3009Payer, randomAuthorizationNonce, signTransferAuthorization, type Eip3009Token } from '../../support/chain/eip3009-token.js';
import { startLocalChain, type LocalChain } from '../../support/chain/local-chain.js';

/**
 * The stand-in for USDC the gateway's x402 tests pay with: its EIP-3009 interface behaves as
 * USDC's does on Base (both signature forms, one use per nonce, the validity window, contract
 * signers by ERC-1271), so what passes against it passes against the real token.
 */
describe('TestEIP3009Token', () => {
  let chain: LocalChain;
  let token: Eip3009Token;
  const payee = privateKeyToAccount(generatePrivateKey()).address;
  const read = (functionName: string, args: readonly unknown[] = []) =>
    chain.client.readContract({ address: token.address, abi: token.abi, functionName, args } as never) as Promise<unknown>;
  const send = (functionName: string, args: readonly unknown[]) => chain.write(token, functionName, args);

  beforeAll(async () => {
    chain = await startLocalChain();
    token = await deployEip3009Token(chain);
  }, 60_000);

  it('when read, then it names its EIP-712 domain as USDC does (version "2", chain 8453, itself)', async () => {
    expect(await read('name')).toBe('USD Coin');
    expect(await read('version')).toBe('2');
    expect(await read('decimals')).toBe(6);
    expect(await read('DOMAIN_SEPARATOR')).toBe(hashDomain({ domain: { name: 'USD Coin', version: '2', chainId: 8453n, verifyingContract: token.address }, types: { EIP712Domain: [{ name: 'name', type: 'string' }, { name: 'version', type: 'string' }, { name: 'chainId', type: 'uint256' }, { name: 'verifyingContract', type: 'address' }] } }));
  });

  it('when an authorization is submitted in the bytes form, then it moves the value once and marks its nonce used', async () => {
    const payer = await eip3009Payer(chain, token, 1_000n);
    const a = await payer.authorize(payee, 400n);
    const args = [a.message.from, a.message.to, a.message.value, a.message.validAfter, a.message.validBefore, a.message.nonce];
    expect(await read('authorizationState', [payer.address, a.message.nonce])).toBe(false);
    await send('transferWithAuthorization', [...args, a.signature]);
    expect(await read('balanceOf', [payer.address])).toBe(600n);
    expect(await read('authorizationState', [payer.address, a.message.nonce])).toBe(true);
    await expect(send('transferWithAuthorization', [...args, a.signature])).rejects.toThrow(/used or canceled/);
    expect(await read('balanceOf', [payee])).toBe(400n);
  });

  it('when an authorization is submitted in the v, r, s form, then it moves the value', async () => {
    const payer = await eip3009Payer(chain, token, 1_000n);
    const a = await payer.authorize(payee, 100n);
    await send('transferWithAuthorization', [a.message.from, a.message.to, a.message.value, a.message.validAfter, a.message.validBefore, a.message.nonce, Number(a.vrs.v ?? 27n + BigInt(a.vrs.yParity)), a.vrs.r, a.vrs.s]);
    expect(await read('balanceOf', [payer.address])).toBe(900n);
  });

  it('when the amount is altered, the window has passed or not begun, then the transfer reverts and nothing moves', async () => {
    const payer = await eip3009Payer(chain, token, 1_000n);
    const a = await payer.authorize(payee, 100n);
    const m = a.message;
    await expect(send('transferWithAuthorization', [m.from, m.to, 999n, m.validAfter, m.validBefore, m.nonce, a.signature])).rejects.toThrow(/invalid signature/);
    const now = BigInt(Math.floor(Date.now() / 1000));
    const expired = await payer.authorize(payee, 100n, 0, { validAfter: now - 600n, validBefore: now - 300n });
    const e = expired.message;
    await expect(send('transferWithAuthorization', [e.from, e.to, e.value, e.validAfter, e.validBefore, e.nonce, expired.signature])).rejects.toThrow(/expired/);
    const early = await payer.authorize(payee, 100n, 0, { validAfter: now + 3_600n, validBefore: now + 7_200n });
    const f = early.message;
    await expect(send('transferWithAuthorization', [f.from, f.to, f.value, f.validAfter, f.validBefore, f.nonce, early.signature])).rejects.toThrow(/not yet valid/);
    expect(await read('balanceOf', [payer.address])).toBe(1_000n);
  });

  it('when the payer is a smart wallet, then its owner’s signature is checked by ERC-1271', async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const wallet = await chain.deploy('TestSmartWallet', [owner.address]);
    await send('mint', [wallet.address, 500n]);
    const walletPayer = await eip3009Payer(chain, token, 0n);
    // the wallet's owner signs the same typed data a wallet would forward to isValidSignature
    const now = BigInt(Math.floor(Date.now() / 1000));
    const message = { from: wallet.address as Address, to: payee, value: 200n, validAfter: now - 60n, validBefore: now + 300n, nonce: randomAuthorizationNonce() };
    const stranger = await signTransferAuthorization(walletPayer.account, token, message);
    await expect(send('transferWithAuthorization', [...Object.values(message), stranger])).rejects.toThrow(/invalid signature/);
    const signature = await signTransferAuthorization(owner, token, message);
    await send('transferWithAuthorization', [...Object.values(message), signature]);
    expect(await read('balanceOf', [wallet.address])).toBe(300n);
  });

  it('when the token is set failing, then an authorized transfer reverts (a settlement that fails on chain)', async () => {
    const payer = await eip3009Payer(chain, token, 1_000n);
    const a = await payer.authorize(payee, 100n);
    await send('setFailing', [true]);
    try {
      await expect(send('transferWithAuthorization', [...Object.values(a.message), a.signature])).rejects.toThrow(/failing on purpose/);
    } finally {
      await send('setFailing', [false]);
    }
    expect(await read('authorizationState', [payer.address, a.message.nonce])).toBe(false);
  });
});
