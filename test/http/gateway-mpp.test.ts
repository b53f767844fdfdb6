import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeFunctionData, keccak256, serializeErc6492Signature, toHex, type Address, type Hex } from 'viem';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { PurgeExpiredChallenges } from '../../src/application/gateway/purge-expired-challenges.use-case.js';
import { CLOCK } from '../../src/application/ports/clock.port.js';
import { UNIT_OF_WORK } from '../../src/application/ports/unit-of-work.port.js';
import { startLocalChain } from '../support/chain/local-chain.js';
import { startRpcSwitch } from '../support/chain/rpc-switch.js';
import { deployTestToken, fundedPayer } from '../support/chain/test-token.js';
import { echoPlugins } from '../support/gateway/echo-plugin.js';
import { paymentAuthorization } from '../support/gateway/payment-credential.js';
import { call, signUpAndIn } from '../support/http-client.js';
import { startTestApp } from '../support/test-app.js';

/**
 * MPP at the gateway against a real EVM (anvil, chain id 8453) and a real ERC-20: every way to
 * pay once and be served twice, or to pay for one thing and get another, is refused with 402 and
 * a fresh challenge; a payment the chain cannot be asked about is a 502 that consumes nothing.
 */
const chain = await startLocalChain();
const rpc = await startRpcSwitch(chain.rpcUrl);
const token = await deployTestToken(chain, 'TUSD');
const otherToken = await deployTestToken(chain, 'OTHER');
const RECIPIENT = privateKeyToAccount(generatePrivateKey()).address;
const payer = await fundedPayer(chain, [token, otherToken], 10n ** 12n);
const PRICE = 10_000n; // MPP_PRICE_GENERATE_TEXT=0.01 at 6 decimals

/** The app's clock, movable: a challenge's issue and expiry times come from it. */
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };
afterEach(() => {
  offsetMs = 0;
  rpc.setUp(true);
  rpc.setHanging(false);
  for (const p of Object.values(plugins)) p.failing = false;
});

const mppEnv = (extra: Record<string, string> = {}) => ({
  MPP_RPC_URL: rpc.url,
  MPP_TOKEN_ADDRESS: token.address,
  MPP_RECIPIENT: RECIPIENT,
  MPP_PRICE_GENERATE_TEXT: '0.01',
  MPP_PRICE_TTS: '0.02',
  MPP_RPC_TIMEOUT_MS: '15000',
  RATE_LIMIT_GATEWAY: '100000',
  ...extra,
});
const { plugins, register } = echoPlugins('generate-text', 'tts', 'agent');
const t = await startTestApp({ env: mppEnv(), override: (c) => (register(c), c.register(CLOCK, { useValue: clock })) });
const { app } = t;
const owner = t.infra.pools.owner;

type Body = Record<string, unknown>;
/** The refusals' reasons in the running test: printed when it fails (a whole-file failure seen in full runs only showed 402). */
const refusals: string[] = [];
afterEach((ctx) => {
  if (ctx.task.result?.state === 'fail') console.log(`gateway refusals in "${ctx.task.name}": ${refusals.join(', ') || 'none'}`);
  refusals.length = 0;
});
const gateway = async (payload: Body, headers: Record<string, string> = {}, target = app) => {
  const res = await call(target, { method: 'POST', url: '/api/v1/gateway', headers: { 'content-type': 'application/json', ...headers }, payload });
  if (res.status === 402 && res.body?.reason) refusals.push(`${res.body.reason}${res.body.message ? ` (${res.body.message})` : ''}`);
  return res;
};

/** Asks for a challenge the way an anonymous client does (X-Payment-Method: mpp, no credential). */
async function challenge(body: Body, headers: Record<string, string> = {}, target = app) {
  const res = await gateway(body, { 'x-payment-method': 'mpp', ...headers }, target);
  expect(res.status).toBe(402);
  return res.body.mpp as { nonce: string; amount: string; currency: string; recipient: string; expiresAt: number };
}

/** The payer's credential: the transaction, the nonce, and the payer's signature of the nonce. */
const credential = async (transaction: Hex, challengeNonce: string, encoding: 'json' | 'base64url' = 'json') =>
  paymentAuthorization({ transaction, challengeNonce, signature: await payer.sign(challengeNonce) }, encoding);
const payWith = (auth: string, body: Body, headers: Record<string, string> = {}, target = app) => gateway(body, { authorization: auth, ...headers }, target);
/** A credential whose signature is `signer`'s (of `signedNonce`, the challenge's nonce unless told). */
const signedBy = async (signer: { sign: (m: string) => Promise<Hex> }, tx: Hex, nonce: string, signedNonce = nonce) =>
  paymentAuthorization({ transaction: tx, challengeNonce: nonce, signature: await signer.sign(signedNonce) });

const paymentRows = async (nonce: string) =>
  (await owner.query('select tx_hash, payer, amount::text, status, attempts from mpp_payments where challenge_nonce = $1', [nonce])).rows;
const consumed = async (nonce: string) => (await owner.query('select consumed_at from mpp_challenges where nonce = $1', [nonce])).rows[0]?.consumed_at !== null;

const expectRefused = (res: Awaited<ReturnType<typeof gateway>>, reason: string) => {
  expect({ status: res.status, error: res.body.error, reason: res.body.reason }).toEqual({ status: 402, error: 'payment_required', reason });
  // a refused credential gets a fresh challenge to pay instead
  expect(res.body.mpp.nonce).toEqual(expect.any(String));
  expect(res.headers['payment-receipt']).toBeUndefined();
};

describe('the 402 challenge', () => {
  it('when an anonymous client asks with X-Payment-Method mpp, then 402 with the spec body, the WWW-Authenticate header, and the challenge stored', async () => {
    const res = await gateway({ prompt: 'hello' }, { 'x-payment-method': 'mpp' });
    expect(res.status).toBe(402);
    expect(res.body).toEqual({
      error: 'payment_required',
      message: expect.any(String),
      mpp: { scheme: 'Payment', amount: '0.01', currency: token.address, recipient: RECIPIENT, description: expect.any(String), nonce: expect.any(String), expiresAt: expect.any(Number) },
      psp: { checkoutUrl: 'http://127.0.0.1:3000/api/v1/payments/psp/create?plugin=generate-text', amount: '0.01', currency: 'usd' },
    });
    expect(res.headers['www-authenticate']).toBe(`Payment amount=0.01, currency=${token.address}, recipient=${RECIPIENT}`);
    expect(res.body.mpp.expiresAt - Date.now()).toBeGreaterThan(4 * 60_000);
    expect(res.body.mpp.expiresAt - Date.now()).toBeLessThanOrEqual(5 * 60_000);
    const row = (await owner.query('select plugin, amount::text, token, recipient, octet_length(body_digest) n, consumed_at from mpp_challenges where nonce = $1', [res.body.mpp.nonce])).rows[0];
    expect(row).toEqual({ plugin: 'generate-text', amount: '10000', token: token.address.toLowerCase(), recipient: RECIPIENT.toLowerCase(), n: 32, consumed_at: null });
  });

  it('when the service has no settler (MPP_SETTLER_PRIVATE_KEY unset), then no PAYMENT-REQUIRED is offered and an x402 payment is refused with 402 X402_UNAVAILABLE', async () => {
    const res = await gateway({ prompt: 'hello' }, { 'x-payment-method': 'mpp' });
    expect(res.status).toBe(402);
    expect(res.headers['payment-required']).toBeUndefined();
    const paid = await gateway({ prompt: 'hello' }, { 'payment-signature': Buffer.from('{}').toString('base64') });
    expect({ status: paid.status, reason: paid.body.reason }).toEqual({ status: 402, reason: 'X402_UNAVAILABLE' });
    expect(paid.body.mpp.nonce).toEqual(expect.any(String));
  });

  it('when the body is invalid, then 400 before any challenge is stored', async () => {
    const before = (await owner.query('select count(*)::int n from mpp_challenges')).rows[0].n;
    const res = await gateway({ prompt: '' }, { 'x-payment-method': 'mpp' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect((await owner.query('select count(*)::int n from mpp_challenges')).rows[0].n).toBe(before);
  });
});

describe('paying on chain', () => {
  it('when the payment is good, then 200 with the receipt (header and body), the plugin told who paid, and the payment recorded as served', async () => {
    const body = { prompt: 'pay me' };
    const mpp = await challenge(body);
    const tx = await payer.transfer(token, RECIPIENT, PRICE);
    const res = await payWith(await credential(tx, mpp.nonce), body);
    expect(res.status).toBe(200);
    expect(res.headers['payment-receipt']).toBe(tx);
    expect(res.headers['x-plugin-id']).toBe('generate-text');
    expect(res.body).toEqual({ plugin: 'generate-text', message: 'echo {"prompt":"pay me"}', timestamp: expect.any(String), payment: { method: 'mpp', receipt: tx } });
    expect(plugins['generate-text'].calls.at(-1)!.payer).toEqual({ kind: 'prepaid', via: 'mpp', userId: null, receipt: tx, level: 'label' });
    expect(await paymentRows(mpp.nonce)).toEqual([{ tx_hash: tx, payer: payer.address.toLowerCase(), amount: '10000', status: 'served', attempts: 1 }]);
  });

  it('when the credential is base64url-encoded and the body has its keys in another order, then it pays too (the digest is of the canonical body)', async () => {
    const mpp = await challenge({ prompt: 'order', max_tokens: 5, temperature: 1 });
    const tx = await payer.transfer(token, RECIPIENT, PRICE);
    const res = await payWith(await credential(tx, mpp.nonce, 'base64url'), { temperature: 1, max_tokens: 5, prompt: 'order' });
    expect(res.status).toBe(200);
  });

  it('when the payment is split over several Transfer logs to the recipient, then they are summed', async () => {
    const mpp = await challenge({ prompt: 'split' });
    const tx = await payer.transferMany(token, [RECIPIENT, RECIPIENT], [PRICE / 2n, PRICE / 2n]);
    expect((await payWith(await credential(tx, mpp.nonce), { prompt: 'split' })).status).toBe(200);
  });
});

describe('replays and mismatches are refused with 402', () => {
  it('when the same credential is sent again, then 402 and the plugin is not run again', async () => {
    const mpp = await challenge({ prompt: 'once' });
    const tx = await payer.transfer(token, RECIPIENT, PRICE);
    expect((await payWith(await credential(tx, mpp.nonce), { prompt: 'once' })).status).toBe(200);
    const calls = plugins['generate-text'].calls.length;
    expectRefused(await payWith(await credential(tx, mpp.nonce), { prompt: 'once' }), 'CHALLENGE_USED');
    expect(plugins['generate-text'].calls.length).toBe(calls);
  });

  it('when the same transaction is offered with a new nonce, then 402 TX_USED and the new challenge stays unconsumed', async () => {
    const first = await challenge({ prompt: 'tx once' });
    const tx = await payer.transfer(token, RECIPIENT, PRICE);
    expect((await payWith(await credential(tx, first.nonce), { prompt: 'tx once' })).status).toBe(200);
    const second = await challenge({ prompt: 'tx once' });
    expectRefused(await payWith(await credential(tx, second.nonce), { prompt: 'tx once' }), 'TX_USED');
    expect(await consumed(second.nonce)).toBe(false);
    expect(await paymentRows(second.nonce)).toEqual([]);
  });

  it('when the nonce is unknown, then 402 UNKNOWN_NONCE', async () => {
    const tx = await payer.transfer(token, RECIPIENT, PRICE);
    expectRefused(await payWith(await credential(tx, randomBytes(24).toString('base64url')), { prompt: 'x' }), 'UNKNOWN_NONCE');
  });

  it('when the challenge expired (over 5 minutes), then 402 EXPIRED', async () => {
    const mpp = await challenge({ prompt: 'late' });
    const tx = await payer.transfer(token, RECIPIENT, PRICE);
    offsetMs = 5 * 60_000 + 1000;
    expectRefused(await payWith(await credential(tx, mpp.nonce), { prompt: 'late' }), 'EXPIRED');
    expect(await consumed(mpp.nonce)).toBe(false);
  });

  it('when the credential cannot be read, then 402 CREDENTIAL_INVALID with a fresh challenge', async () => {
    expectRefused(await payWith('Payment not-json-at-all!', { prompt: 'x' }), 'CREDENTIAL_INVALID');
    expectRefused(await payWith(`Payment ${JSON.stringify({ scheme: 'Payment', transaction: '0x12', challengeNonce: 'short' })}`, { prompt: 'x' }), 'CREDENTIAL_INVALID');
  });

  it('when the transaction does not exist, then 402 TX_NOT_FOUND', async () => {
    const mpp = await challenge({ prompt: 'ghost' });
    expectRefused(await payWith(await credential(`0x${randomBytes(32).toString('hex')}`, mpp.nonce), { prompt: 'ghost' }), 'TX_NOT_FOUND');
    expect(await consumed(mpp.nonce)).toBe(false);
  });

  it('when another token was sent, then 402 NO_TRANSFER_TO_RECIPIENT', async () => {
    const mpp = await challenge({ prompt: 'wrong token' });
    const tx = await payer.transfer(otherToken, RECIPIENT, PRICE);
    expectRefused(await payWith(await credential(tx, mpp.nonce), { prompt: 'wrong token' }), 'NO_TRANSFER_TO_RECIPIENT');
  });

  it('when the token went to another recipient, then 402 NO_TRANSFER_TO_RECIPIENT', async () => {
    const mpp = await challenge({ prompt: 'wrong recipient' });
    const tx = await payer.transfer(token, privateKeyToAccount(generatePrivateKey()).address as Address, PRICE);
    expectRefused(await payWith(await credential(tx, mpp.nonce), { prompt: 'wrong recipient' }), 'NO_TRANSFER_TO_RECIPIENT');
  });

  it('when the payment is short of the price, then 402 UNDERPAID', async () => {
    const mpp = await challenge({ prompt: 'cheap' });
    const tx = await payer.transfer(token, RECIPIENT, PRICE - 1n);
    expectRefused(await payWith(await credential(tx, mpp.nonce), { prompt: 'cheap' }), 'UNDERPAID');
  });

  it('when the transaction reverted, then 402 TX_FAILED (its logs do not count)', async () => {
    const mpp = await challenge({ prompt: 'reverted' });
    const tx = await payer.transferThenRevert(token, RECIPIENT, PRICE);
    expectRefused(await payWith(await credential(tx, mpp.nonce), { prompt: 'reverted' }), 'TX_FAILED');
  });

  it('when the transfer was made before the challenge was issued (beyond the chain clock\'s 30 s of slack), then 402 PAID_BEFORE_CHALLENGE', async () => {
    const tx = await payer.transfer(token, RECIPIENT, PRICE);
    const receipt = await chain.client.getTransactionReceipt({ hash: tx });
    const block = await chain.client.getBlock({ blockNumber: receipt.blockNumber });
    // the challenge is issued 32 seconds after the payment's block
    offsetMs = Math.max(0, (Number(block.timestamp) + 32) * 1000 - Date.now());
    const mpp = await challenge({ prompt: 'early' });
    expectRefused(await payWith(await credential(tx, mpp.nonce), { prompt: 'early' }), 'PAID_BEFORE_CHALLENGE');
  });

  it('when the payment\'s block time lags the challenge by a few seconds (the chain\'s clock is not ours), then it pays', async () => {
    const tx = await payer.transfer(token, RECIPIENT, PRICE);
    const receipt = await chain.client.getTransactionReceipt({ hash: tx });
    const block = await chain.client.getBlock({ blockNumber: receipt.blockNumber });
    // the challenge is issued 5 seconds after the payment's block, as a lagging chain clock shows it
    offsetMs = Math.max(0, (Number(block.timestamp) + 5) * 1000 - Date.now());
    const mpp = await challenge({ prompt: 'lagging' });
    const res = await payWith(await credential(tx, mpp.nonce), { prompt: 'lagging' });
    expect(res.status).toBe(200);
    expect(res.headers['payment-receipt']).toBe(tx);
  });

  it('when a credential for one plugin or body is used for another, then 402, and it still pays for its own', async () => {
    const mpp = await challenge({ prompt: 'mine' });
    const tx = await payer.transfer(token, RECIPIENT, PRICE * 2n);
    expectRefused(await payWith(await credential(tx, mpp.nonce), { text: 'mine' }, { 'x-plugin-id': 'tts' }), 'OTHER_PLUGIN');
    expectRefused(await payWith(await credential(tx, mpp.nonce), { prompt: 'something dearer' }), 'OTHER_BODY');
    expectRefused(await payWith(await credential(tx, mpp.nonce), { plugin: 'tts', text: 'mine' }), 'OTHER_PLUGIN');
    expect(await consumed(mpp.nonce)).toBe(false);
    expect((await payWith(await credential(tx, mpp.nonce), { prompt: 'mine' })).status).toBe(200);
  });
});

describe("the payer's signature of the nonce", () => {
  const stranger = { sign: (m: string) => privateKeyToAccount(generatePrivateKey()).signMessage({ message: m }) };

  it('when a front-runner claims the payer\'s transaction with a challenge of their own, then 402 and nothing consumed; the payer then claims it', async () => {
    const body = { prompt: 'mine, not yours' };
    const mine = await challenge(body);
    const tx = await payer.transfer(token, RECIPIENT, PRICE);
    // the front-runner sees the transfer on chain and asks for a challenge of their own for the same call
    const theirs = await challenge(body);
    const calls = plugins['generate-text'].calls.length;
    expectRefused(await payWith(await signedBy(stranger, tx, theirs.nonce), body), 'PAYER_SIGNATURE_INVALID');
    expectRefused(await payWith(paymentAuthorization({ transaction: tx, challengeNonce: theirs.nonce }), body), 'PAYER_SIGNATURE_MISSING');
    expect(plugins['generate-text'].calls.length).toBe(calls);
    expect(await consumed(theirs.nonce)).toBe(false);
    expect((await owner.query('select count(*)::int n from mpp_payments where tx_hash = $1', [tx])).rows[0].n).toBe(0);
    const paid = await payWith(await signedBy(payer, tx, mine.nonce), body);
    expect(paid.status).toBe(200);
    expect(await paymentRows(mine.nonce)).toEqual([{ tx_hash: tx, payer: payer.address.toLowerCase(), amount: '10000', status: 'served', attempts: 1 }]);
  });

  it('when the payer signed another nonce, or the credential carries no signature, then 402 and the transfer stays claimable', async () => {
    const body = { prompt: 'signed what?' };
    const mpp = await challenge(body);
    const other = await challenge(body);
    const tx = await payer.transfer(token, RECIPIENT, PRICE);
    expectRefused(await payWith(await signedBy(payer, tx, mpp.nonce, other.nonce), body), 'PAYER_SIGNATURE_INVALID');
    expectRefused(await payWith(paymentAuthorization({ transaction: tx, challengeNonce: mpp.nonce }), body), 'PAYER_SIGNATURE_MISSING');
    // 65 bytes that are no signature at all, and text that is not hex: refused the same way
    expectRefused(await payWith(paymentAuthorization({ transaction: tx, challengeNonce: mpp.nonce, signature: `0x${'00'.repeat(65)}` }), body), 'PAYER_SIGNATURE_INVALID');
    expectRefused(await payWith(`Payment ${JSON.stringify({ scheme: 'Payment', transaction: tx, challengeNonce: mpp.nonce, signature: 'nope' })}`, body), 'CREDENTIAL_INVALID');
    expect(await consumed(mpp.nonce)).toBe(false);
    expect((await payWith(await signedBy(payer, tx, mpp.nonce), body)).status).toBe(200);
  });

  it('when a smart wallet pays (ERC-1271 deployed, ERC-6492 not yet deployed), then its owner\'s signature through the wallet claims it', async () => {
    const factory = await chain.deploy('TestSmartWalletFactory');
    for (const deployed of [true, false]) {
      const walletOwner = privateKeyToAccount(generatePrivateKey());
      const salt = keccak256(toHex(walletOwner.address));
      const wallet = (await chain.client.readContract({ address: factory.address, abi: factory.abi, functionName: 'addressOf', args: [walletOwner.address, salt] })) as Address;
      if (deployed) await chain.write(factory, 'deploy', [walletOwner.address, salt]);
      // the wallet's own transfer, sent as the wallet (anvil impersonation stands in for its execute call)
      await chain.write(token, 'mint', [wallet, PRICE]);
      await chain.client.test.setBalance({ address: wallet, value: 10n ** 18n });
      await chain.client.test.impersonateAccount({ address: wallet });
      const body = { prompt: `smart ${deployed}` };
      const mpp = await challenge(body);
      const tx = await chain.client.writeContract({ account: wallet, address: token.address, abi: token.abi, functionName: 'transfer', args: [RECIPIENT, PRICE], gas: 200_000n } as never);
      await chain.client.waitForTransactionReceipt({ hash: tx, pollingInterval: 50 });
      await chain.client.test.stopImpersonatingAccount({ address: wallet });
      // a wallet's execute call leaves no nonce on its address; the impersonated send did, and CREATE2 refuses such an address
      if (!deployed) await chain.client.test.setNonce({ address: wallet, nonce: 0 });
      const inner = await walletOwner.signMessage({ message: mpp.nonce });
      const signature = deployed ? inner : serializeErc6492Signature({ address: factory.address, data: encodeFunctionData({ abi: factory.abi, functionName: 'deploy', args: [walletOwner.address, salt] }), signature: inner });
      // another key through the wallet is not its owner; an undeployed wallet's owner must send the wrapped form
      expectRefused(await payWith(await signedBy(stranger, tx, mpp.nonce), body), 'PAYER_SIGNATURE_INVALID');
      if (!deployed) expectRefused(await payWith(paymentAuthorization({ transaction: tx, challengeNonce: mpp.nonce, signature: inner }), body), 'PAYER_SIGNATURE_INVALID');
      const res = await payWith(paymentAuthorization({ transaction: tx, challengeNonce: mpp.nonce, signature }), body);
      expect({ deployed, status: res.status }).toEqual({ deployed, status: 200 });
      expect((await paymentRows(mpp.nonce))[0].payer).toBe(wallet.toLowerCase());
    }
  });
});

describe('a transaction paying for several senders (a router or a batch)', () => {
  /** One transaction, by a router both senders approved, paying the recipient from each in turn. */
  async function routed(amounts: [bigint, bigint]) {
    const router = await fundedPayer(chain, [token], 0n);
    const first = await fundedPayer(chain, [token], PRICE);
    await first.approve(token, router.address, amounts[0]);
    await payer.approve(token, router.address, amounts[1]);
    return { first, tx: await router.transferFromMany(token, [first.address, payer.address], RECIPIENT, amounts) };
  }
  it('when the first sender paid one unit and the next the price, then the first cannot claim the sum (402, nothing consumed); the one who paid claims it for what they paid', async () => {
    const body = { prompt: 'routed' };
    const mpp = await challenge(body);
    const { first, tx } = await routed([1n, PRICE]);
    const calls = plugins['generate-text'].calls.length;
    expectRefused(await payWith(await signedBy(first, tx, mpp.nonce), body), 'PAYER_SIGNATURE_INVALID');
    expect(plugins['generate-text'].calls.length).toBe(calls);
    expect(await consumed(mpp.nonce)).toBe(false);
    expect((await payWith(await signedBy(payer, tx, mpp.nonce), body)).status).toBe(200);
    expect(await paymentRows(mpp.nonce)).toEqual([{ tx_hash: tx, payer: payer.address.toLowerCase(), amount: PRICE.toString(), status: 'served', attempts: 1 }]);
  });

  it('when two senders each paid half the price, then 402 UNDERPAID for either: amounts are not added across senders', async () => {
    const body = { prompt: 'halves' };
    const mpp = await challenge(body);
    const { first, tx } = await routed([PRICE / 2n, PRICE / 2n]);
    expectRefused(await payWith(await signedBy(first, tx, mpp.nonce), body), 'UNDERPAID');
    expectRefused(await payWith(await signedBy(payer, tx, mpp.nonce), body), 'UNDERPAID');
    expect(await consumed(mpp.nonce)).toBe(false);
  });
});

describe('failures around the payment', () => {
  it('when the RPC is down, then 502 and nothing consumed; once it is back the same credential pays', async () => {
    const mpp = await challenge({ prompt: 'rpc' });
    const tx = await payer.transfer(token, RECIPIENT, PRICE);
    rpc.setUp(false);
    const calls = plugins['generate-text'].calls.length;
    const res = await payWith(await credential(tx, mpp.nonce), { prompt: 'rpc' });
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(await consumed(mpp.nonce)).toBe(false);
    expect(await paymentRows(mpp.nonce)).toEqual([]);
    expect(plugins['generate-text'].calls.length).toBe(calls);
    rpc.setUp(true);
    expect((await payWith(await credential(tx, mpp.nonce), { prompt: 'rpc' })).status).toBe(200);
  });

  it('when the RPC hangs, then 502 after MPP_RPC_TIMEOUT_MS and nothing consumed', async () => {
    const quick = await startTestApp({ env: mppEnv({ MPP_RPC_TIMEOUT_MS: '1500' }), override: register });
    const mpp = await challenge({ prompt: 'slow' }, {}, quick.app);
    const tx = await payer.transfer(token, RECIPIENT, PRICE);
    rpc.setHanging(true);
    const started = Date.now();
    const res = await payWith(await credential(tx, mpp.nonce), { prompt: 'slow' }, {}, quick.app);
    expect(res).toMatchObject({ status: 502, body: { code: 'UPSTREAM_UNAVAILABLE' } });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await quick.infra.pools.owner.query('select consumed_at from mpp_challenges where nonce = $1', [mpp.nonce]).then((r) => r.rows[0].consumed_at)).toBeNull();
  });

  it('when the payer is also signed in, then the plugin is told who they are (still prepaid by the chain)', async () => {
    const u = await signUpAndIn(app);
    const key = (await call(app, { method: 'POST', url: '/api/keys', headers: u.headers, payload: { name: 'mpp' } })).body.key as string;
    const mpp = await challenge({ prompt: 'known' }, { authorization: `Bearer ${key}` });
    const tx = await payer.transfer(token, RECIPIENT, PRICE);
    // X-Payment-Method picks mpp; the credential rides in Authorization, so the key goes as a session here
    const res = await payWith(await credential(tx, mpp.nonce), { prompt: 'known' }, { cookie: u.cookie, 'x-csrf-token': u.csrf });
    expect(res.status).toBe(200);
    expect(plugins['generate-text'].calls.at(-1)!.payer).toEqual({ kind: 'prepaid', via: 'mpp', userId: u.id, receipt: tx, level: 'label' });
  });

  it('when the plugin fails after the payment, then 502, the payment is marked failed, and the same credential may retry exactly once', async () => {
    const mpp = await challenge({ prompt: 'flaky' });
    const tx = await payer.transfer(token, RECIPIENT, PRICE);
    plugins['generate-text'].failing = true;
    const failed = await payWith(await credential(tx, mpp.nonce), { prompt: 'flaky' });
    expect(failed.status).toBe(502);
    expect(failed.body.code).toBe('PROVIDER_ERROR');
    expect(await paymentRows(mpp.nonce)).toEqual([expect.objectContaining({ status: 'failed', attempts: 1 })]);
    // not for another body
    expectRefused(await payWith(await credential(tx, mpp.nonce), { prompt: 'other' }), 'CHALLENGE_USED');
    plugins['generate-text'].failing = false;
    const retried = await payWith(await credential(tx, mpp.nonce), { prompt: 'flaky' });
    expect(retried.status).toBe(200);
    expect(retried.body.payment).toEqual({ method: 'mpp', receipt: tx });
    expect(await paymentRows(mpp.nonce)).toEqual([expect.objectContaining({ status: 'served', attempts: 2 })]);
    expectRefused(await payWith(await credential(tx, mpp.nonce), { prompt: 'flaky' }), 'CHALLENGE_USED');
  });

  it('when the retry fails too, then no third try', async () => {
    const mpp = await challenge({ prompt: 'very flaky' });
    const tx = await payer.transfer(token, RECIPIENT, PRICE);
    plugins['generate-text'].failing = true;
    expect((await payWith(await credential(tx, mpp.nonce), { prompt: 'very flaky' })).status).toBe(502);
    expect((await payWith(await credential(tx, mpp.nonce), { prompt: 'very flaky' })).status).toBe(502);
    plugins['generate-text'].failing = false;
    expectRefused(await payWith(await credential(tx, mpp.nonce), { prompt: 'very flaky' }), 'CHALLENGE_USED');
    expect(await paymentRows(mpp.nonce)).toEqual([expect.objectContaining({ status: 'failed', attempts: 2 })]);
  });

  it('when a failed payment\'s challenge has expired and its credential is sent for a dearer plugin or another body, then 402 CHALLENGE_USED and nothing runs; the one retry stays for the same request', async () => {
    const body = { prompt: 'cheap call', model: 'no/such-model' };
    const mpp = await challenge(body);
    const tx = await payer.transfer(token, RECIPIENT, PRICE);
    // the call fails before any output (as an unknown model does): the payment may be retried once
    plugins['generate-text'].failing = true;
    expect((await payWith(await credential(tx, mpp.nonce), body)).status).toBe(502);
    plugins['generate-text'].failing = false;
    offsetMs = 5 * 60_000 + 1000;
    const agentCalls = plugins.agent.calls.length;
    const textCalls = plugins['generate-text'].calls.length;
    // the agent plugin costs 0.05, five times what was paid
    expectRefused(await payWith(await credential(tx, mpp.nonce), { task: 'expensive work' }, { 'x-plugin-id': 'agent' }), 'CHALLENGE_USED');
    expectRefused(await payWith(await credential(tx, mpp.nonce), { prompt: 'another, longer prompt' }), 'CHALLENGE_USED');
    expect(plugins.agent.calls.length).toBe(agentCalls);
    expect(plugins['generate-text'].calls.length).toBe(textCalls);
    expect(await paymentRows(mpp.nonce)).toEqual([expect.objectContaining({ status: 'failed', attempts: 1 })]);
    const retried = await payWith(await credential(tx, mpp.nonce), body);
    expect(retried.status).toBe(200);
    expect(await paymentRows(mpp.nonce)).toEqual([expect.objectContaining({ status: 'served', attempts: 2 })]);
  });

  it('when the ledger is asked for a retry of another plugin, body or price, then its statement claims nothing; the same request claims it once', async () => {
    const body = { prompt: 'claimed in the database' };
    const mpp = await challenge(body);
    const tx = await payer.transfer(token, RECIPIENT, PRICE);
    plugins['generate-text'].failing = true;
    expect((await payWith(await credential(tx, mpp.nonce), body)).status).toBe(502);
    const digest = (await owner.query(`select encode(body_digest, 'hex') d from mpp_challenges where nonce = $1`, [mpp.nonce])).rows[0].d as string;
    const claim = (changes: object) =>
      t.container.resolve(UNIT_OF_WORK).asSystem((s) => s.mppLedger.claimRetry({ nonce: mpp.nonce, txHash: tx, plugin: 'generate-text', bodyDigest: digest, amount: PRICE, ...changes }));
    expect(await claim({ plugin: 'agent' })).toBe(false);
    expect(await claim({ bodyDigest: '00'.repeat(32) })).toBe(false);
    expect(await claim({ amount: 5n * PRICE })).toBe(false);
    expect(await paymentRows(mpp.nonce)).toEqual([expect.objectContaining({ status: 'failed', attempts: 1 })]);
    expect(await claim({})).toBe(true);
    expect(await claim({})).toBe(false);
    expect(await paymentRows(mpp.nonce)).toEqual([expect.objectContaining({ status: 'retrying', attempts: 2 })]);
  });

  it('when 20 requests race with one credential, then exactly one is served', async () => {
    const mpp = await challenge({ prompt: 'race' });
    const tx = await payer.transfer(token, RECIPIENT, PRICE);
    const calls = plugins['generate-text'].calls.length;
    const results = await Promise.all(Array.from({ length: 20 }, async () => payWith(await credential(tx, mpp.nonce), { prompt: 'race' })));
    expect(results.map((r) => r.status).sort()).toEqual([200, ...Array(19).fill(402)]);
    expect(plugins['generate-text'].calls.length).toBe(calls + 1);
    expect(await paymentRows(mpp.nonce)).toHaveLength(1);
  });

  it('when a streamed call is paid, then the Payment-Receipt header comes before the frames, and the done frame is the success body', async () => {
    const mpp = await challenge({ prompt: 'stream' });
    const tx = await payer.transfer(token, RECIPIENT, PRICE);
    const res = await app.inject({ method: 'POST', url: '/api/v1/gateway', headers: { authorization: await credential(tx, mpp.nonce), accept: 'text/event-stream' }, payload: { prompt: 'stream' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(res.headers['payment-receipt']).toBe(tx);
    expect(res.body).toContain('event: delta\ndata: {"content":"echo "}');
    const done = /event: done\ndata: (.*)\n/.exec(res.body)![1]!;
    expect(JSON.parse(done)).toEqual({ plugin: 'generate-text', message: 'echo {"prompt":"stream"}', timestamp: expect.any(String), payment: { method: 'mpp', receipt: tx } });
  });
});

describe('the hourly purge', () => {
  it('when challenges expired unpaid over an hour ago, then they are deleted; paid ones and recent ones stay', async () => {
    offsetMs = -2 * 60 * 60_000;
    const stale = await challenge({ prompt: 'forgotten' });
    offsetMs = 0;
    const recent = await challenge({ prompt: 'recent' });
    const paid = await challenge({ prompt: 'paid' });
    const tx = await payer.transfer(token, RECIPIENT, PRICE);
    expect((await payWith(await credential(tx, paid.nonce), { prompt: 'paid' })).status).toBe(200);
    await owner.query(`update mpp_challenges set expires_at = now() - interval '3 hours' where nonce = $1`, [paid.nonce]);
    const { purged } = await t.container.resolve(PurgeExpiredChallenges).execute();
    expect(purged).toBeGreaterThanOrEqual(1);
    const left = (await owner.query('select nonce from mpp_challenges where nonce = any($1)', [[stale.nonce, recent.nonce, paid.nonce]])).rows.map((r) => r.nonce);
    expect(left.sort()).toEqual([recent.nonce, paid.nonce].sort());
    // the system role itself cannot delete a challenge that has not expired, whatever it asks
    await t.infra.pools.system.query('delete from mpp_challenges where nonce = $1', [recent.nonce]);
    expect((await owner.query('select count(*)::int n from mpp_challenges where nonce = $1', [recent.nonce])).rows[0].n).toBe(1);
  });
});

describe('confirmations and the chain id', () => {
  it('when MPP_CONFIRMATIONS is 2 and the payment has one block, then 402 NOT_ENOUGH_CONFIRMATIONS; one block later it pays', async () => {
    const strict = await startTestApp({ env: mppEnv({ MPP_CONFIRMATIONS: '2' }), override: register });
    const mpp = await challenge({ prompt: 'patient' }, {}, strict.app);
    const tx = await payer.transfer(token, RECIPIENT, PRICE);
    expectRefused(await payWith(await credential(tx, mpp.nonce), { prompt: 'patient' }, {}, strict.app), 'NOT_ENOUGH_CONFIRMATIONS');
    await chain.client.test.mine({ blocks: 1 });
    expect((await payWith(await credential(tx, mpp.nonce), { prompt: 'patient' }, {}, strict.app)).status).toBe(200);
  });

  it('when the RPC is down at start, then the service starts without MPP, and offers it once the RPC answers', async () => {
    rpc.setUp(false);
    const late = await startTestApp({ env: mppEnv(), override: register });
    const without = await gateway({ prompt: 'x' }, { 'x-payment-method': 'mpp' }, late.app);
    expect(without.status).toBe(402);
    expect(without.body.mpp).toBeUndefined();
    rpc.setUp(true);
    const withMpp = await gateway({ prompt: 'x' }, { 'x-payment-method': 'mpp' }, late.app);
    expect(withMpp.body.mpp).toEqual(expect.objectContaining({ scheme: 'Payment', amount: '0.01' }));
  });

  it('when the RPC serves another chain than MPP_CHAIN_ID, then the service starts, logs an error, and offers no MPP (402 with psp only)', async () => {
    const other = await startTestApp({ env: mppEnv({ MPP_CHAIN_ID: '1' }), override: register });
    const res = await gateway({ prompt: 'x' }, { 'x-payment-method': 'mpp' }, other.app);
    expect(res.status).toBe(402);
    expect(res.body.mpp).toBeUndefined();
    expect(res.body.psp).toEqual(expect.objectContaining({ currency: 'usd' }));
    expect(res.headers['www-authenticate']).toBeUndefined();
    expect(other.logs.some((l) => l.includes('MPP_RPC_URL serves another chain'))).toBe(true);
  });
});
