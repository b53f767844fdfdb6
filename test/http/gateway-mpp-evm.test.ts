import { Challenge } from 'mppx';
import { Mppx, evm } from 'mppx/client';
import * as evmClient from 'mppx/evm/client';
import { afterEach, describe, expect, it } from 'vitest';
import { erc20Abi, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type LocalAccount } from 'viem/accounts';
import { CLOCK } from '../../src/application/ports/clock.port.js';
import { startLocalChain } from '../support/chain/local-chain.js';
import { deployEip3009Token, randomAuthorizationNonce, signTransferAuthorization } from '../support/chain/eip3009-token.js';
import { echoPlugins } from '../support/gateway/echo-plugin.js';
import { injectFetch } from '../support/gateway/x402-client.js';
import { call } from '../support/http-client.js';
import { startTestApp } from '../support/test-app.js';

/**
 * MPP's `evm` authorization at the gateway, paid by mppx 0.11 itself (its `Mppx.create` fetch with
 * its `evm` method) against a real EVM (anvil) and an EIP-3009 token: paid once and served once;
 * every way to pay once and be served twice, or to pay for one thing and get another, is a 402 with
 * a fresh challenge and nothing moved; a settlement that fails serves nothing.
 */
const chain = await startLocalChain();
const token = await deployEip3009Token(chain, 'USD Coin', 'USDC');
const RECIPIENT = privateKeyToAccount(generatePrivateKey()).address;
const SETTLER_KEY = generatePrivateKey();
const brokeKey = generatePrivateKey();
const settler = privateKeyToAccount(SETTLER_KEY);
await chain.client.test.setBalance({ address: settler.address, value: 10n ** 20n });
const PRICE = 10_000n; // MPP_PRICE_GENERATE_TEXT=0.01 at 6 decimals
const AUTH_DOMAIN = { name: 'USD Coin', version: '2' };

let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };
afterEach(() => {
  offsetMs = 0;
  for (const p of Object.values(plugins)) p.failing = false;
});

const env = {
  MPP_RPC_URL: chain.rpcUrl,
  MPP_TOKEN_ADDRESS: token.address,
  MPP_RECIPIENT: RECIPIENT,
  MPP_SETTLER_PRIVATE_KEY: SETTLER_KEY,
  MPP_PRICE_GENERATE_TEXT: '0.01',
  MPP_PRICE_TTS: '0.02',
  MPP_RPC_TIMEOUT_MS: '15000',
  RATE_LIMIT_GATEWAY: '100000',
};
const { plugins, register } = echoPlugins('generate-text', 'tts', 'agent');
const t = await startTestApp({ env, override: (c) => (register(c), c.register(CLOCK, { useValue: clock })) });
const { app } = t;
const owner = t.infra.pools.owner;
const URL_ = 'http://127.0.0.1:3000/api/v1/gateway';

const balanceOf = (a: Address) => chain.client.readContract({ address: token.address, abi: erc20Abi, functionName: 'balanceOf', args: [a] });
async function payer(amount = 10n ** 9n) {
  const account = privateKeyToAccount(generatePrivateKey());
  if (amount > 0n) await chain.write(token, 'mint', [account.address, amount]);
  return account;
}

/** mppx's own paying fetch over the in-process app; `sent` keeps every request's headers. */
function mppxFetch(account: LocalAccount) {
  const { fetch: base, log } = injectFetch(app);
  const mppx = Mppx.create({ methods: [evm({ account, authorization: AUTH_DOMAIN, networks: [8453] })], fetch: base, polyfill: false });
  return { fetch: mppx.fetch as typeof fetch, log };
}
const post = (f: typeof fetch, body: object, headers: Record<string, string> = {}) =>
  f(URL_, { method: 'POST', headers: { 'content-type': 'application/json', 'x-payment-method': 'mpp', ...headers }, body: JSON.stringify(body) });

/** The credential mppx sent last (what a replayer would copy). */
const lastCredential = (log: { sent: { headers: Headers }[] }) => log.sent.map((s) => s.headers.get('authorization')).filter(Boolean).at(-1)!;
const gateway = (payload: object, headers: Record<string, string> = {}) =>
  call(app, { method: 'POST', url: '/api/v1/gateway', headers: { 'content-type': 'application/json', ...headers }, payload });
const rows = async (payer: Address) =>
  (await owner.query('select status, plugin from mpp_authorizations where payer = $1', [payer.toLowerCase()])).rows as { status: string; plugin: string }[];

/** A challenge as an anonymous client gets it, and the mppx credential for it, signed but not sent. */
async function credentialFor(account: LocalAccount, body: object, headers: Record<string, string> = {}) {
  const res = await gateway(body, { 'x-payment-method': 'mpp', ...headers });
  expect(res.status).toBe(402);
  const [challenge] = Challenge.deserializeList(res.headers['www-authenticate'] as string);
  const method = evmClient.charge({ account, authorization: AUTH_DOMAIN, networks: [8453] });
  return { challenge: challenge!, credential: (await method.createCredential({ challenge: challenge as never, context: {} as never })) as string };
}
const b64 = { decode: (s: string) => JSON.parse(Buffer.from(s.slice('Payment '.length), 'base64url').toString('utf8')), encode: (o: object) => `Payment ${Buffer.from(JSON.stringify(o)).toString('base64url')}` };

describe('the 402 challenge', () => {
  it("when a client asks, then WWW-Authenticate is the spec's challenge followed by mppx's evm params, and mppx reads one evm charge from it", async () => {
    const res = await gateway({ prompt: 'hello' }, { 'x-payment-method': 'mpp' });
    expect(res.status).toBe(402);
    const header = res.headers['www-authenticate'] as string;
    expect(header.startsWith(`Payment amount=0.01, currency=${token.address}, recipient=${RECIPIENT}, id="${res.body.mpp.nonce}", realm="127.0.0.1:3000", method="evm", intent="charge"`)).toBe(true);
    const [challenge] = Challenge.deserializeList(header);
    expect(challenge).toMatchObject({ id: res.body.mpp.nonce, method: 'evm', intent: 'charge', expires: new Date(res.body.mpp.expiresAt).toISOString() });
    expect(challenge!.request).toMatchObject({ amount: '10000', recipient: RECIPIENT, methodDetails: { chainId: 8453, credentialTypes: ['authorization'], decimals: 6 } });
  });
});

describe('without a settler', () => {
  it("when MPP_SETTLER_PRIVATE_KEY is unset, then the header is the spec's alone, and an mppx credential is refused with a fresh challenge", async () => {
    const { MPP_SETTLER_PRIVATE_KEY: _unset, ...withoutSettler } = env;
    const bare = await startTestApp({ env: withoutSettler, override: (c) => register(c) });
    const ask = () => call(bare.app, { method: 'POST', url: '/api/v1/gateway', headers: { 'content-type': 'application/json', 'x-payment-method': 'mpp' }, payload: { prompt: 'hi' } });
    expect((await ask()).headers['www-authenticate']).toBe(`Payment amount=0.01, currency=${token.address}, recipient=${RECIPIENT}`);
    const { credential } = await credentialFor(await payer(), { prompt: 'hi' });
    const res = await call(bare.app, { method: 'POST', url: '/api/v1/gateway', headers: { 'content-type': 'application/json', authorization: credential }, payload: { prompt: 'hi' } });
    expect({ status: res.status, reason: res.body.reason }).toEqual({ status: 402, reason: 'MPP_EVM_UNAVAILABLE' });
    expect(res.body.mpp.nonce).toEqual(expect.any(String));
  });
});

describe('paying with mppx', () => {
  it('when mppx pays, then 200 once, the price moved from payer to recipient by the settler, the receipt given, and the authorization recorded as served', async () => {
    const account = await payer();
    const before = { payer: await balanceOf(account.address), recipient: await balanceOf(RECIPIENT) };
    const { fetch: f, log } = mppxFetch(account);
    const res = await post(f, { prompt: 'paid by mppx' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { payment: { receipt: Hex } };
    expect(body).toMatchObject({ plugin: 'generate-text', payment: { method: 'mpp', receipt: expect.stringMatching(/^0x[0-9a-f]{64}$/) } });
    expect(res.headers.get('payment-receipt')).toBe(body.payment.receipt);
    // mppx answered the MPP challenge (Authorization: Payment), not x402's header
    expect(lastCredential(log)).toMatch(/^Payment /);
    expect(log.sent.at(-1)!.headers.get('payment-signature')).toBeNull();
    expect(await balanceOf(account.address)).toBe(before.payer - PRICE);
    expect(await balanceOf(RECIPIENT)).toBe(before.recipient + PRICE);
    const receipt = await chain.client.getTransactionReceipt({ hash: body.payment.receipt });
    expect(receipt.from.toLowerCase()).toBe(settler.address.toLowerCase());
    expect(await rows(account.address)).toEqual([{ status: 'served', plugin: 'generate-text' }]);
    expect(plugins['generate-text'].calls.at(-1)!.payer).toMatchObject({ kind: 'prepaid', via: 'mpp', userId: null });
  });

  it('when the same credential is sent again, then 402 with a fresh challenge, nothing served and nothing moved', async () => {
    const account = await payer();
    const { fetch: f, log } = mppxFetch(account);
    expect((await post(f, { prompt: 'once' })).status).toBe(200);
    const calls = plugins['generate-text'].calls.length;
    const balance = await balanceOf(account.address);
    const replay = await gateway({ prompt: 'once' }, { authorization: lastCredential(log) });
    expect({ status: replay.status, reason: replay.body.reason }).toEqual({ status: 402, reason: expect.stringMatching(/USED/) });
    expect(replay.body.mpp.nonce).toEqual(expect.any(String));
    expect(plugins['generate-text'].calls.length).toBe(calls);
    expect(await balanceOf(account.address)).toBe(balance);
  });

  it('when two requests carry the same credential at once, then one is served and one transfer is made', async () => {
    const account = await payer();
    const before = await balanceOf(account.address);
    const { credential } = await credentialFor(account, { prompt: 'race' });
    const calls = plugins['generate-text'].calls.length;
    const results = await Promise.all(Array.from({ length: 4 }, () => gateway({ prompt: 'race' }, { authorization: credential })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 402, 402, 402]);
    expect(plugins['generate-text'].calls.length).toBe(calls + 1);
    expect(await balanceOf(account.address)).toBe(before - PRICE);
  });
});

describe('one challenge, two payers', () => {
  it('when two payers each sign for the same challenge, then only the first is served and the second moves nothing (the chain alone would take both)', async () => {
    const [first, second] = [await payer(), await payer()];
    const res = await gateway({ prompt: 'shared' }, { 'x-payment-method': 'mpp' });
    const [challenge] = Challenge.deserializeList(res.headers['www-authenticate'] as string);
    const sign = async (account: LocalAccount) => (await evmClient.charge({ account, authorization: AUTH_DOMAIN, networks: [8453] }).createCredential({ challenge: challenge as never, context: {} as never })) as string;
    const before = await balanceOf(second.address);
    expect((await gateway({ prompt: 'shared' }, { authorization: await sign(first) })).status).toBe(200);
    const late = await gateway({ prompt: 'shared' }, { authorization: await sign(second) });
    expect({ status: late.status, reason: late.body.reason }).toEqual({ status: 402, reason: 'CHALLENGE_USED' });
    expect(await balanceOf(second.address)).toBe(before);
  });
});

describe('a credential for something else', () => {
  it('when the challenge was issued for another body or another plugin, then 402 OTHER_BODY or OTHER_PLUGIN and nothing moved', async () => {
    const account = await payer();
    const before = await balanceOf(account.address);
    const { credential } = await credentialFor(account, { prompt: 'cheap question' });
    const otherBody = await gateway({ prompt: 'another question' }, { authorization: credential });
    expect({ status: otherBody.status, reason: otherBody.body.reason }).toEqual({ status: 402, reason: 'OTHER_BODY' });
    const otherPlugin = await gateway({ text: 'speak' }, { authorization: credential, 'x-plugin-id': 'tts' });
    expect({ status: otherPlugin.status, reason: otherPlugin.body.reason }).toEqual({ status: 402, reason: 'OTHER_PLUGIN' });
    expect(await balanceOf(account.address)).toBe(before);
    // and the challenge stays payable for its own request
    expect((await gateway({ prompt: 'cheap question' }, { authorization: credential })).status).toBe(200);
  });

  it('when the challenge was issued at another price, then 402 OTHER_TERMS', async () => {
    const account = await payer();
    const { challenge, credential } = await credentialFor(account, { prompt: 'priced' });
    await owner.query('update mpp_challenges set amount = 1 where nonce = $1', [challenge.id]);
    const res = await gateway({ prompt: 'priced' }, { authorization: credential });
    expect({ status: res.status, reason: res.body.reason }).toEqual({ status: 402, reason: 'OTHER_TERMS' });
  });

  it('when the amount or the recipient is altered, then 402 and nothing moved', async () => {
    const account = await payer();
    const before = await balanceOf(account.address);
    const { credential } = await credentialFor(account, { prompt: 'altered' });
    const wire = b64.decode(credential);
    const lower = await gateway({ prompt: 'altered' }, { authorization: b64.encode({ ...wire, payload: { ...wire.payload, value: '1' } }) });
    expect({ status: lower.status, reason: lower.body.reason }).toEqual({ status: 402, reason: 'UNDERPAID' });
    const higher = await gateway({ prompt: 'altered' }, { authorization: b64.encode({ ...wire, payload: { ...wire.payload, value: '20000' } }) });
    expect(higher.status).toBe(402);
    const elsewhere = await gateway({ prompt: 'altered' }, { authorization: b64.encode({ ...wire, payload: { ...wire.payload, to: account.address } }) });
    expect({ status: elsewhere.status, reason: elsewhere.body.reason }).toEqual({ status: 402, reason: 'WRONG_RECIPIENT' });
    expect(await balanceOf(account.address)).toBe(before);
    // nothing was recorded for the refused ones: the challenge is still the payer's to pay, once
    expect((await gateway({ prompt: 'altered' }, { authorization: credential })).status).toBe(200);
    expect(await balanceOf(account.address)).toBe(before - PRICE);
  });

  it("when the authorization's nonce is not the challenge's (signed by hand, for another realm), then 402 CHALLENGE_NOT_BOUND before any chain call", async () => {
    const account = await payer();
    const { credential } = await credentialFor(account, { prompt: 'unbound' });
    const wire = b64.decode(credential);
    const nonce = randomAuthorizationNonce();
    const message = { from: account.address, to: RECIPIENT, value: PRICE, validAfter: 0n, validBefore: BigInt(wire.payload.validBefore), nonce };
    const signature = await signTransferAuthorization(account, token, message);
    const res = await gateway({ prompt: 'unbound' }, { authorization: b64.encode({ ...wire, payload: { ...wire.payload, nonce, signature } }) });
    expect({ status: res.status, reason: res.body.reason }).toEqual({ status: 402, reason: 'CHALLENGE_NOT_BOUND' });
  });

  it('when the challenge has expired, then 402 EXPIRED and nothing moved', async () => {
    const account = await payer();
    const before = await balanceOf(account.address);
    const { credential } = await credentialFor(account, { prompt: 'late' });
    offsetMs = 6 * 60_000;
    const res = await gateway({ prompt: 'late' }, { authorization: credential });
    expect({ status: res.status, reason: res.body.reason }).toEqual({ status: 402, reason: 'EXPIRED' });
    expect(await balanceOf(account.address)).toBe(before);
  });
});

describe('settlement and plugin failures', () => {
  it('when the payer cannot cover the price, then 402, nothing served and nothing recorded', async () => {
    const account = await payer(0n);
    const { credential } = await credentialFor(account, { prompt: 'broke' });
    const calls = plugins['generate-text'].calls.length;
    const res = await gateway({ prompt: 'broke' }, { authorization: credential });
    expect(res.status).toBe(402);
    expect(plugins['generate-text'].calls.length).toBe(calls);
    expect((await rows(account.address)).filter((r) => r.status === 'served')).toEqual([]);
  });

  it('when the plugin fails after the settlement, then 502, and the same credential is served once more without a second transfer', async () => {
    const account = await payer();
    const before = await balanceOf(account.address);
    const { credential } = await credentialFor(account, { prompt: 'retry me' });
    plugins['generate-text'].failing = true;
    expect((await gateway({ prompt: 'retry me' }, { authorization: credential })).status).toBe(502);
    plugins['generate-text'].failing = false;
    // the one retry holds after the challenge's five minutes, for the same request only (decision 0410)
    offsetMs = 6 * 60_000;
    const elsewhere = await gateway({ prompt: 'retry me elsewhere' }, { authorization: credential });
    expect(elsewhere.status).toBe(402);
    const again = await gateway({ prompt: 'retry me' }, { authorization: credential });
    expect(again.status).toBe(200);
    expect(await balanceOf(account.address)).toBe(before - PRICE);
    // once only
    expect((await gateway({ prompt: 'retry me' }, { authorization: credential })).status).toBe(402);
  });

  it('when the settler has no ether for gas, then 502 with the reason, nothing served, nothing moved, and the challenge still payable', async () => {
    const poor = await startTestApp({ env: { ...env, MPP_SETTLER_PRIVATE_KEY: brokeKey }, override: (c) => register(c) });
    const account = await payer();
    const before = await balanceOf(account.address);
    const res = await call(poor.app, { method: 'POST', url: '/api/v1/gateway', headers: { 'content-type': 'application/json', 'x-payment-method': 'mpp' }, payload: { prompt: 'no gas' } });
    expect(res.status).toBe(402);
    const [challenge] = Challenge.deserializeList(res.headers['www-authenticate'] as string);
    const credential = (await evmClient.charge({ account, authorization: AUTH_DOMAIN, networks: [8453] }).createCredential({ challenge: challenge as never, context: {} as never })) as string;
    const calls = plugins['generate-text'].calls.length;
    const paid = await call(poor.app, { method: 'POST', url: '/api/v1/gateway', headers: { 'content-type': 'application/json', authorization: credential }, payload: { prompt: 'no gas' } });
    expect(paid.status).toBe(502);
    expect(paid.body.code).toBe('SETTLEMENT_FAILED');
    expect(plugins['generate-text'].calls.length).toBe(calls);
    expect(await balanceOf(account.address)).toBe(before);
    expect((await poor.infra.pools.owner.query('select consumed_at from mpp_challenges where nonce = $1', [challenge!.id])).rows[0].consumed_at).toBeNull();
  });
});
