import type { Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { startLocalChain } from '../../support/chain/local-chain.js';
import { startSplitNode } from '../../support/chain/split-node.js';
import { deployTestToken } from '../../support/chain/test-token.js';
import { call, signUpAndIn } from '../../support/http-client.js';
import { runQueuedPayoutJobs } from '../../support/payout-jobs.js';
import { startTestApp } from '../../support/test-app.js';

/**
 * A payout is never signed again while its transaction could still be mined. The wallet's RPC URL
 * is a load balancer over two nodes at different heights: the chain that mines every transfer at
 * once, and a second anvil that has seen none of it, which answers the receipt reads. To the
 * service the wallet's nonce is used and the transfer has no receipt: exactly what a dropped
 * transfer looked like. It was mined.
 */
const ahead = await startLocalChain();
const behind = await startLocalChain();
const token = await deployTestToken(ahead);
const node = await startSplitNode(ahead.rpcUrl, behind.rpcUrl);
const { app, infra, container } = await startTestApp({ env: { BASE_RPC_URL: node.url, WALLET_TOKEN_ADDRESS: token.address, WALLET_RPC_TIMEOUT_MS: '1500' } });

const USDC = 1_000_000n;
const tokenBalance = async (address: string) => (await ahead.client.readContract({ address: token.address, abi: token.abi, functionName: 'balanceOf', args: [address as Address] })) as bigint;

describe('a payout judged on nodes that disagree', () => {
  it('when the receipt node lags the nonce node, then the mined transfer is not paid again: the payout keeps its hash, is parked for an operator, and is confirmed once the receipt is seen', async () => {
    const user = await signUpAndIn(app);
    const address = (await call(app, { method: 'POST', url: '/api/wallet', headers: user.headers, payload: { action: 'create' } })).body.address as Address;
    await ahead.client.test.setBalance({ address, value: 10n ** 18n });
    await ahead.write(token, 'mint', [address, 100n * USDC]);
    const to = privateKeyToAccount(generatePrivateKey()).address;

    const sent = await call(app, { method: 'POST', url: '/api/skills/usdc-payments', headers: user.headers, payload: { action: 'send', to, amount: '5', idempotencyKey: 'lagging' } });
    expect(await tokenBalance(to)).toBe(5n * USDC);
    expect(sent).toMatchObject({ status: 200, body: { status: 'submitted', transactionHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) } });
    expect(sent.body.lastError).toMatch(/operator/);
    // the job and the sweep's runs see the same disagreement: still nothing signed again
    await runQueuedPayoutJobs(infra.pools.owner, container);
    expect(await tokenBalance(to)).toBe(5n * USDC);
    expect(await ahead.client.getTransactionCount({ address })).toBe(1);
    const parked = await infra.pools.owner.query('select transaction_hash, parked_at from wallet_payouts where id = $1', [sent.body.paymentId]);
    expect(parked.rows[0]).toMatchObject({ transaction_hash: sent.body.transactionHash, parked_at: expect.any(Date) });

    // the lagging node catches up: the next check confirms the first transfer
    node.setReceiptsFrom(ahead.rpcUrl);
    await runQueuedPayoutJobs(infra.pools.owner, container);
    const status = await call(app, { method: 'POST', url: '/api/skills/usdc-payments', headers: user.headers, payload: { action: 'payment_status', idempotencyKey: 'lagging' } });
    expect(status.body.payment).toMatchObject({ status: 'confirmed', transactionHash: sent.body.transactionHash });
    expect(await tokenBalance(to)).toBe(5n * USDC);
    expect(await tokenBalance(address)).toBe(95n * USDC);
  });
});
