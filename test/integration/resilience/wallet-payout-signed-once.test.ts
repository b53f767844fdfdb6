import { createHash } from 'node:crypto';
import type { Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalWalletCustody } from '../../../src/adapters/outbound/wallets/local-wallet-custody.js';
import { walletChain } from '../../../src/adapters/outbound/wallets/wallet-chain.js';
import { SECRET_BOX } from '../../../src/application/ports/secret-box.port.js';
import { UNIT_OF_WORK, type UserWork } from '../../../src/application/ports/unit-of-work.port.js';
import type { WalletsUserScope } from '../../../src/application/ports/scopes/wallets-scope.port.js';
import { SendPayouts } from '../../../src/application/wallets/send-payouts.use-case.js';
import type { UserId } from '../../../src/domain/shared/ids.js';
import { startLocalChain } from '../../support/chain/local-chain.js';
import { startRpcSwitch } from '../../support/chain/rpc-switch.js';
import { deployTestToken } from '../../support/chain/test-token.js';
import { call, signUpAndIn } from '../../support/http-client.js';
import { startTestApp } from '../../support/test-app.js';

/**
 * A payout is signed and broadcast once by what the database holds, not by a lock: a session
 * advisory lock held nothing behind a transaction-mode pooler, and was lost without its holder
 * knowing when its session was killed (it is gone since docs/decisions/0416; these cases were first
 * run against it). Two runners of one payout (an inline attempt and its job) each reach the local
 * chain through a node of their own; one is paused at its nonce read while the other runs whole;
 * the chain does not mine meanwhile, so the payout is still `submitted` (not final) when the paused
 * runner goes on. Exactly one transfer is mined.
 */
const chain = await startLocalChain();
const token = await deployTestToken(chain);
const nodeOfA = await startRpcSwitch(chain.rpcUrl);
const nodeOfB = await startRpcSwitch(chain.rpcUrl);
const { app, infra, container } = await startTestApp({ env: { BASE_RPC_URL: nodeOfA.url, WALLET_TOKEN_ADDRESS: token.address, WALLET_RPC_TIMEOUT_MS: '3000' } });
const uow = container.resolve(UNIT_OF_WORK) as UserWork<WalletsUserScope, 'payouts' | 'wallets'>;

afterEach(async () => {
  nodeOfB.setHold(null);
  await chain.client.test.setAutomine(true);
});

const USDC = 1_000_000n;
/** A runs with a short receipt wait (it gives up on an unmined transfer soon); B's paused call must outlast A's run. */
const runner = (rpcUrl: string) => {
  const c = walletChain({ network: 'base', rpcUrl, timeoutMs: rpcUrl === nodeOfB.url ? 6000 : 1500, token: { address: token.address, decimals: 6, symbol: 'TUSD' } });
  return new SendPayouts(uow, new LocalWalletCustody(uow, container.resolve(SECRET_BOX), c));
};
const tokenBalance = async (address: string) => (await chain.client.readContract({ address: token.address, abi: token.abi, functionName: 'balanceOf', args: [address as Address] })) as bigint;

async function payoutOwed(amount: bigint) {
  const user = await signUpAndIn(app);
  const address = (await call(app, { method: 'POST', url: '/api/wallet', headers: user.headers, payload: { action: 'create' } })).body.address as Address;
  await chain.client.test.setBalance({ address, value: 10n ** 18n });
  await chain.write(token, 'mint', [address, 100n * USDC]);
  const to = privateKeyToAccount(generatePrivateKey()).address;
  const userId = user.id as UserId;
  const requestHash = createHash('sha256').update(`${to}:${amount}`).digest('hex');
  const payout = await uow.asUser(userId, (s) => s.payouts.insert(userId, { executionId: null, position: 0, idempotencyKey: null, requestHash, to, amount, amountCents: null }));
  return { userId, address, to, payout };
}

/** Pauses B's first nonce read (it has claimed the payout by then) until `release`; `reached` once it is there. */
function pauseBAtItsNonceRead() {
  let release!: () => void;
  let reached!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const atNonce = new Promise<void>((r) => (reached = r));
  let paused = false;
  nodeOfB.setHold((method) => {
    if (method !== 'eth_getTransactionCount' || paused) return null;
    paused = true;
    reached();
    return released;
  });
  return { atNonce, release };
}

/** A payout owed, the chain not mining, and B's run paused at its nonce read (its claim made). */
async function owedWithBPausedAfterItsClaim(amount: bigint) {
  const owed = await payoutOwed(amount);
  await chain.client.test.setAutomine(false);
  const b = pauseBAtItsNonceRead();
  const runB = runner(nodeOfB.url).run(owed.userId, [owed.payout.id]);
  await b.atNonce;
  return { owed, b, runB };
}

/**
 * A runs while B is paused: whole, when nothing stops it (it signed and recorded, or, since 0414,
 * found B's claim), or for 4 s when it waits on B's claim to be recorded. Then B goes on.
 */
async function aRunsWhileBIsPaused(owed: { userId: UserId; payout: { id: string } }, releaseB: () => void) {
  const runA = runner(nodeOfA.url).run(owed.userId, [owed.payout.id]);
  await Promise.race([runA, new Promise((r) => setTimeout(r, 4000))]);
  releaseB();
  await runA;
}

/** The chain mines again (everything broadcast meanwhile), and one more run settles the payout. */
async function mineAndSettle(owed: { userId: UserId; payout: { id: string } }) {
  await chain.client.test.mine({ blocks: 1 });
  await chain.client.test.setAutomine(true);
  return runner(nodeOfA.url).run(owed.userId, [owed.payout.id]);
}

async function expectOneTransfer(o: { address: Address; to: Address }, amount: bigint) {
  expect(await tokenBalance(o.to)).toBe(amount);
  expect(await tokenBalance(o.address)).toBe(100n * USDC - amount);
  expect(await chain.client.getTransactionCount({ address: o.address })).toBe(1);
}

describe('a payout is signed once whatever the send lock does', () => {
  it('when two runs send one payout at once (no lock between them), then one transfer is mined and both runs end on its hash', async () => {
    const { owed, b, runB } = await owedWithBPausedAfterItsClaim(5n * USDC);
    await aRunsWhileBIsPaused(owed, b.release);
    await runB;
    // whichever run signed it, a later run only checks it
    const last = await mineAndSettle(owed);
    expect(last.payouts[0]).toMatchObject({ status: 'confirmed', transactionHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    await expectOneTransfer(owed, 5n * USDC);
  });

  it('when every database session of the service is terminated while a run is between claim and signature, then the other run does not sign the payout: one transfer is mined', async () => {
    const { owed, b, runB } = await owedWithBPausedAfterItsClaim(7n * USDC);
    // what a killed lock session did to its holder, for every session: the claim is a committed row, not a session's
    await infra.pools.owner.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`);
    await new Promise((r) => setTimeout(r, 300)); // the pools see their idle connections die
    await aRunsWhileBIsPaused(owed, b.release);
    await runB;
    await mineAndSettle(owed);
    await expectOneTransfer(owed, 7n * USDC);
  });
});

