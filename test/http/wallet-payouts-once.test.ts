import { createWalletClient, http, type Address } from 'viem';
import { base } from 'viem/chains';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterEach, describe, expect, it } from 'vitest';
import { startLocalChain } from '../support/chain/local-chain.js';
import { startRpcSwitch } from '../support/chain/rpc-switch.js';
import { deployTestToken } from '../support/chain/test-token.js';
import { call, signUpAndIn, type SignedIn } from '../support/http-client.js';
import { runQueuedPayoutJobs } from '../support/payout-jobs.js';
import { startTestApp } from '../support/test-app.js';
import { DERIVED_KEY_WINDOW_MS } from '../../src/application/wallets/skill-wallets.js';
import { SweepUnfinishedPayouts, UNFINISHED_PAYOUT_AGE_MS } from '../../src/application/wallets/sweep-unfinished-payouts.use-case.js';

/**
 * Each on-chain payout pays once, whatever fails between its steps: the local chain (anvil) behind
 * an RPC node that drops chosen calls (a broadcast, a receipt read) or that stops mining. Each
 * split has $60 pending when $40 more reaches its $100 threshold and the fault strikes; then the
 * queued payout job runs (as pg-boss would retry it) and the owner repeats the $40 call, as a
 * client told "failed" would: each recipient must end holding exactly its share of $100.
 */
const chain = await startLocalChain();
const token = await deployTestToken(chain);
const rpc = await startRpcSwitch(chain.rpcUrl);
const { app, infra, container } = await startTestApp({ env: { BASE_RPC_URL: rpc.url, WALLET_TOKEN_ADDRESS: token.address, WALLET_RPC_TIMEOUT_MS: '2000' } });
const owner = infra.pools.owner;

afterEach(async () => {
  rpc.setFault(null);
  rpc.setUp(true);
  await chain.client.test.setAutomine(true);
});

const USDC = 1_000_000n;
const post = (user: SignedIn, url: string, payload: object) => call(app, { method: 'POST', url, headers: user.headers, payload });
const split = (user: SignedIn, payload: object) => post(user, '/api/skills/instant-split', payload);
const send = (user: SignedIn, payload: object) => post(user, '/api/skills/usdc-payments', { action: 'send', ...payload });
const tokenBalance = async (address: string) => (await chain.client.readContract({ address: token.address, abi: token.abi, functionName: 'balanceOf', args: [address as Address] })) as bigint;
const freshAddress = () => privateKeyToAccount(generatePrivateKey()).address;
const runJobs = (opts: { twice?: boolean } = {}) => runQueuedPayoutJobs(owner, container, opts);

async function fundedUser(usdc: bigint): Promise<{ user: SignedIn; address: Address }> {
  const user = await signUpAndIn(app);
  const address = (await post(user, '/api/wallet', { action: 'create' })).body.address as Address;
  await chain.client.test.setBalance({ address, value: 10n ** 18n });
  await chain.write(token, 'mint', [address, usdc]);
  return { user, address };
}

/** A $100 threshold split 50 / 30 / 20 among three fresh addresses, $60 already pending. */
async function splitRule(user: SignedIn) {
  const recipients = [freshAddress(), freshAddress(), freshAddress()];
  const rule = await split(user, {
    action: 'create_split_rule',
    threshold: 100,
    splits: recipients.map((recipientAddress, i) => ({ recipientAddress, percentage: [50, 30, 20][i], role: 'r', name: `n${i}` })),
  });
  const splitId = rule.body.splitRule.splitId as string;
  expect((await split(user, { action: 'execute_split', splitId, amount: 60 })).body).toMatchObject({ executed: false, pendingCents: 6000 });
  return { splitId, recipients };
}

/** After recovery the repeated $40 is new revenue waiting below the threshold, and each recipient holds exactly its share of $100. */
async function expectPaidOnce(user: SignedIn, address: Address, splitId: string, recipients: Address[]) {
  await split(user, { action: 'execute_split', splitId, amount: 40 });
  expect(await Promise.all(recipients.map(tokenBalance))).toEqual([50n * USDC, 30n * USDC, 20n * USDC]);
  expect(await tokenBalance(address)).toBe(900n * USDC);
  const payouts = await split(user, { action: 'list_payouts', splitId });
  expect(payouts.body.executions).toHaveLength(1);
  expect(payouts.body.executions[0].settlement.transfers.map((t: { status: string }) => t.status)).toEqual(['confirmed', 'confirmed', 'confirmed']);
  expect((await split(user, { action: 'get_balance', splitId })).body).toMatchObject({ distributedCents: 10_000, pendingCents: 4000 });
}

describe('instant-split pays each recipient once', () => {
  it('when the node fails right after the first transfer is broadcast (its receipt cannot be read), then the transfer is recorded as submitted with its hash, and the retry checks it instead of paying again', async () => {
    const { user, address } = await fundedUser(1000n * USDC);
    const { splitId, recipients } = await splitRule(user);
    let broadcasts = 0;
    rpc.setFault((method) => {
      if (method === 'eth_sendRawTransaction') return ++broadcasts > 1;
      return broadcasts >= 1 && method === 'eth_getTransactionReceipt';
    });
    const res = await split(user, { action: 'execute_split', splitId, amount: 40 });
    expect(JSON.stringify(res.body)).not.toMatch(/nothing was sent/i);
    expect(res.body).toMatchObject({ executed: true, settlement: { onChain: true, transfers: [{ status: 'submitted', transactionHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) }, { status: 'pending' }, { status: 'pending' }] } });

    rpc.setFault(null);
    // the job and a retry of it at the same moment: still one transfer each
    expect(await runJobs({ twice: true })).toBe(1);
    await expectPaidOnce(user, address, splitId, recipients);
  });

  it('when the second transfer cannot be broadcast, then the first stays paid, the others wait, and the retry pays only them', async () => {
    const { user, address } = await fundedUser(1000n * USDC);
    const { splitId, recipients } = await splitRule(user);
    let broadcasts = 0;
    rpc.setFault((method) => method === 'eth_sendRawTransaction' && ++broadcasts > 1);
    const res = await split(user, { action: 'execute_split', splitId, amount: 40 });
    expect(res.body.settlement.transfers[0]).toMatchObject({ status: 'confirmed' });
    expect(res.body.settlement.transfers.slice(1).map((t: { status: string }) => t.status)).not.toContain('confirmed');
    expect(await tokenBalance(recipients[1]!)).toBe(0n);

    rpc.setFault(null);
    await runJobs();
    await expectPaidOnce(user, address, splitId, recipients);
  });

  it('when a receipt does not come in time (the chain stops mining), then the answer says submitted with the hash, never "nothing was sent", and once mined the retry pays nobody twice', async () => {
    const { user, address } = await fundedUser(1000n * USDC);
    const { splitId, recipients } = await splitRule(user);
    await chain.client.test.setAutomine(false);
    const res = await split(user, { action: 'execute_split', splitId, amount: 40 });
    expect(JSON.stringify(res.body)).not.toMatch(/nothing was sent/i);
    expect(res.body).toMatchObject({ executed: true, settlement: { status: 'pending', transfers: [{ status: 'submitted', transactionHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) }, { status: 'pending' }, { status: 'pending' }] } });
    const read = await split(user, { action: 'list_payouts', splitId });
    expect(read.body.executions[0].settlement.transfers[0]).toMatchObject({ status: 'submitted', transactionHash: res.body.settlement.transfers[0].transactionHash });

    await chain.client.test.setAutomine(true);
    await chain.client.test.mine({ blocks: 1 });
    await runJobs();
    await expectPaidOnce(user, address, splitId, recipients);
  });
});

describe('payouts left unfinished', () => {
  it('when the node is down past the job\'s retries, then the payouts stay pending, and the sweep pays each of them once when it is back', async () => {
    const { user, address } = await fundedUser(1000n * USDC);
    const { splitId, recipients } = await splitRule(user);
    rpc.setUp(false);
    const res = await split(user, { action: 'execute_split', splitId, amount: 40 });
    expect(res.body).toMatchObject({ executed: true, settlement: { status: 'pending', retrying: expect.any(String) } });
    await runJobs();
    rpc.setUp(true);
    const sweep = container.resolve(SweepUnfinishedPayouts);
    // not yet old enough: the payouts' own job is still theirs
    expect(await sweep.execute()).toMatchObject({ payouts: 0 });
    const later = new Date(Date.now() + UNFINISHED_PAYOUT_AGE_MS + 1000);
    const [first, second] = await Promise.all([sweep.execute(later), sweep.execute(later)]);
    expect(first.payouts + second.payouts).toBeGreaterThanOrEqual(3);
    await expectPaidOnce(user, address, splitId, recipients);
    expect(await sweep.execute(later)).toMatchObject({ payouts: 0 });
  });
});

describe('usdc-payments send is idempotent', () => {
  it('when the same send comes twice, with one idempotency key or with none, then one transfer is made and both answers name it; the key reused for another amount is 409', async () => {
    const { user, address } = await fundedUser(100n * USDC);
    const to = freshAddress();
    const first = await send(user, { to, amount: '5', idempotencyKey: 'invoice-42' });
    expect(first).toMatchObject({ status: 200, body: { status: 'confirmed', replayed: false, transactionHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) } });
    const again = await send(user, { to, amount: '5', idempotencyKey: 'invoice-42' });
    expect(again).toMatchObject({ status: 200, body: { status: 'confirmed', replayed: true, transactionHash: first.body.transactionHash } });
    expect(await send(user, { to, amount: '6', idempotencyKey: 'invoice-42' })).toMatchObject({ status: 409, body: { code: 'IDEMPOTENCY_KEY_REUSED' } });
    expect(await tokenBalance(to)).toBe(5n * USDC);

    const other = freshAddress();
    const [a, b] = await Promise.all([send(user, { to: other, amount: '2' }), send(user, { to: other, amount: '2' })]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.transactionHash).toBe(b.body.transactionHash);
    expect(await tokenBalance(other)).toBe(2n * USDC);
    expect(await tokenBalance(address)).toBe(93n * USDC);
    expect((await post(user, '/api/skills/usdc-payments', { action: 'payment_status', idempotencyKey: 'invoice-42' })).body).toMatchObject({ payment: { status: 'confirmed', transactionHash: first.body.transactionHash } });
  });

  it('when a signed send never reached the node, then the next send takes the following nonce and sends the first again ahead of it: each is paid once', async () => {
    const { user, address } = await fundedUser(100n * USDC);
    const [first, other] = [freshAddress(), freshAddress()];
    rpc.setFault((method) => method === 'eth_sendRawTransaction');
    const lost = await send(user, { to: first, amount: '3', idempotencyKey: 'lost-broadcast' });
    expect(lost).toMatchObject({ status: 200, body: { status: 'submitted' } });
    rpc.setFault(null);
    // the node never saw nonce 0, the database did: this send is signed at 1 and broadcasts 0's bytes first
    expect(await send(user, { to: other, amount: '4' })).toMatchObject({ status: 200, body: { status: 'confirmed' } });

    const again = await send(user, { to: first, amount: '3', idempotencyKey: 'lost-broadcast' });
    expect(again).toMatchObject({ status: 200, body: { status: 'confirmed', replayed: true, paymentId: lost.body.paymentId, transactionHash: lost.body.transactionHash } });
    await runJobs();
    expect([await tokenBalance(first), await tokenBalance(other)]).toEqual([3n * USDC, 4n * USDC]);
    expect(await tokenBalance(address)).toBe(93n * USDC);
  });

  it('when a transaction made elsewhere with an imported key takes a recorded send\'s nonce, then the send is not signed again: it keeps its hash, parked for an operator', async () => {
    const key = generatePrivateKey();
    const user = await signUpAndIn(app);
    const address = (await post(user, '/api/wallet/hosted', { privateKey: key })).body.address as Address;
    await chain.client.test.setBalance({ address, value: 10n ** 18n });
    await chain.write(token, 'mint', [address, 100n * USDC]);
    const first = freshAddress();
    rpc.setFault((method) => method === 'eth_sendRawTransaction');
    const lost = await send(user, { to: first, amount: '3', idempotencyKey: 'taken-elsewhere' });
    expect(lost).toMatchObject({ status: 200, body: { status: 'submitted' } });
    rpc.setFault(null);
    // the key's owner pays from another wallet program: nonce 0 is used by a transaction the service never saw
    const elsewhere = createWalletClient({ account: privateKeyToAccount(key), chain: base, transport: http(chain.rpcUrl) });
    await chain.client.waitForTransactionReceipt({ hash: await elsewhere.sendTransaction({ to: freshAddress(), value: 1n }) });

    // one node cannot tell "never mined" from "mined where I cannot see it yet": nothing is signed again
    const again = await send(user, { to: first, amount: '3', idempotencyKey: 'taken-elsewhere' });
    expect(again).toMatchObject({ status: 200, body: { status: 'submitted', replayed: true, paymentId: lost.body.paymentId, transactionHash: lost.body.transactionHash } });
    expect(again.body.lastError).toMatch(/parked for an operator/);
    await runJobs();
    expect(await tokenBalance(first)).toBe(0n);
    expect(await tokenBalance(address)).toBe(100n * USDC);
  });

  it('when the receipt of a send does not come in time, then it answers submitted with the hash, and the same send again pays nothing more', async () => {
    const { user, address } = await fundedUser(100n * USDC);
    const to = freshAddress();
    await chain.client.test.setAutomine(false);
    const first = await send(user, { to, amount: '7' });
    expect(JSON.stringify(first.body)).not.toMatch(/nothing was sent/i);
    expect(first).toMatchObject({ status: 200, body: { status: 'submitted', transactionHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) } });

    await chain.client.test.setAutomine(true);
    await chain.client.test.mine({ blocks: 1 });
    const again = await send(user, { to, amount: '7' });
    expect(again).toMatchObject({ status: 200, body: { status: 'confirmed', replayed: true, transactionHash: first.body.transactionHash } });
    await runJobs();
    expect(await tokenBalance(to)).toBe(7n * USDC);
    expect(await tokenBalance(address)).toBe(93n * USDC);
  });

  it('attack: when a send without a key is still unfinished past the repeat window and the client sends it again, then it is the same send, not a second transfer', async () => {
    const { user, address } = await fundedUser(100n * USDC);
    const to = freshAddress();
    await chain.client.test.setAutomine(false);
    const first = await send(user, { to, amount: '8' });
    expect(first).toMatchObject({ status: 200, body: { status: 'submitted' } });
    // the send is older than the repeat window
    await owner.query(`update wallet_payouts set created_at = created_at - make_interval(secs => $2) where id = $1`, [first.body.paymentId, (DERIVED_KEY_WINDOW_MS + 60_000) / 1000]);
    const again = await send(user, { to, amount: '8' });
    expect(again).toMatchObject({ status: 200, body: { replayed: true, paymentId: first.body.paymentId } });
    await chain.client.test.setAutomine(true);
    await chain.client.test.mine({ blocks: 1 });
    await runJobs();
    expect((await owner.query(`select status from wallet_payouts where id = $1`, [first.body.paymentId])).rows).toEqual([{ status: 'confirmed' }]);
    expect(await tokenBalance(to)).toBe(8n * USDC);
    expect(await tokenBalance(address)).toBe(92n * USDC);
    // finished and past the window, the same send is a new payment
    expect(await send(user, { to, amount: '8' })).toMatchObject({ status: 200, body: { status: 'confirmed', replayed: false } });
    expect(await tokenBalance(to)).toBe(16n * USDC);
  });

  it('when two users send the same amount to the same address at once, then each pays: a send is the same only as its own user\'s', async () => {
    const [a, b] = [await fundedUser(10n * USDC), await fundedUser(10n * USDC)];
    const to = freshAddress();
    const [ra, rb] = await Promise.all([send(a.user, { to, amount: '1' }), send(b.user, { to, amount: '1' })]);
    expect([ra.body.replayed, rb.body.replayed]).toEqual([false, false]);
    expect(ra.body.transactionHash).not.toBe(rb.body.transactionHash);
    expect(await tokenBalance(to)).toBe(2n * USDC);
  });
});

describe('an account whose wallet holds funds or owes payouts', () => {
  const deleteAccount = (user: SignedIn) => call(app, { method: 'DELETE', url: '/api/settings', headers: user.headers });
  const stillThere = async (userId: string) => (await owner.query(`select (select count(*)::int from users where id = $1) as users, (select count(*)::int from wallets where user_id = $1) as wallets`, [userId])).rows[0];

  it('attack: when the account is deleted while its wallet holds USDC or ETH above gas dust, then 409 WALLET_NOT_EMPTY saying how to withdraw, and the key stays; once emptied, it is deleted', async () => {
    const { user, address } = await fundedUser(5n * USDC);
    const refused = await deleteAccount(user);
    expect(refused).toMatchObject({ status: 409, body: { code: 'WALLET_NOT_EMPTY', error: expect.stringMatching(/5(\.0+)? USDC.*send/) } });
    expect(await stillThere(user.id)).toEqual({ users: 1, wallets: 1 });
    // the USDC sent out, the ETH left is more than dust
    expect((await send(user, { to: freshAddress(), amount: '5' })).body.status).toBe('confirmed');
    expect((await deleteAccount(user)).body.code).toBe('WALLET_NOT_EMPTY');
    await chain.client.test.setBalance({ address, value: 10n ** 13n });
    expect(await deleteAccount(user)).toMatchObject({ status: 200, body: { success: true } });
    expect(await stillThere(user.id)).toEqual({ users: 0, wallets: 0 });
  });

  it('when a payout it owes is unfinished, then 409 PAYOUTS_UNFINISHED and nothing is deleted; when the node cannot say what the wallet holds, then 502', async () => {
    const { user, address } = await fundedUser(0n);
    await chain.client.test.setBalance({ address, value: 0n });
    await owner.query(`insert into wallet_payouts (user_id, request_hash, to_address, amount) values ($1, repeat('a', 64), $2, 1)`, [user.id, freshAddress().toLowerCase()]);
    expect(await deleteAccount(user)).toMatchObject({ status: 409, body: { code: 'PAYOUTS_UNFINISHED' } });
    expect(await stillThere(user.id)).toEqual({ users: 1, wallets: 1 });
    rpc.setUp(false);
    expect(await deleteAccount(user)).toMatchObject({ status: 502, body: { code: 'UPSTREAM_UNAVAILABLE' } });
    rpc.setUp(true);
    await owner.query(`update wallet_payouts set status = 'failed' where user_id = $1`, [user.id]);
    expect((await deleteAccount(user)).status).toBe(200);
    expect(await stillThere(user.id)).toEqual({ users: 0, wallets: 0 });
  });
});
