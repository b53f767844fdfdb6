import type { AddressInfo } from 'node:net';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { patientBreakers } from '../support/ai/chat-fixtures.js';
import { startFakeOpenAiServer } from '../support/ai/fake-openai-server.js';
import { startLocalChain } from '../support/chain/local-chain.js';
import { deployTestToken, fundedPayer } from '../support/chain/test-token.js';
import { buyOneCall } from '../support/gateway/one-call-purchase.js';
import { payAndSign } from '../support/gateway/payment-credential.js';
import { streamedCall } from '../support/gateway/streamed-call.js';
import { bearer, call, signUpAndIn } from '../support/http-client.js';
import { startTestApp } from '../support/test-app.js';

/**
 * A prepaid call (a one-call purchase, or an MPP payment) is spent once its answer has begun to
 * reach the caller (CONTRACT.md section 7 "prepaid calls"). Performed as an attacker would, over
 * real HTTP against the service on a port, with the real generate-text plugin streaming from a
 * local OpenAI-format provider and MPP paid on a local chain: read the first delta, leave, ask
 * again. Only the provider failing before any output gives the payment back, once for MPP.
 */
const PLATFORM_KEY = 'sk-or-prepaid-spent';
const provider = await startFakeOpenAiServer({ apiKey: PLATFORM_KEY });
afterAll(() => provider.close());
const chain = await startLocalChain();
const token = await deployTestToken(chain);
const RECIPIENT = privateKeyToAccount(generatePrivateKey()).address;
const payer = await fundedPayer(chain, [token], 10n ** 12n);
const PRICE = 10_000n;
const t = await startTestApp({
  env: {
    OPENROUTER_API_KEY: PLATFORM_KEY, OPENROUTER_BASE_URL: provider.baseUrl, RATE_LIMIT_GATEWAY: '100000',
    MPP_RPC_URL: chain.rpcUrl, MPP_TOKEN_ADDRESS: token.address, MPP_RECIPIENT: RECIPIENT, MPP_RPC_TIMEOUT_MS: '15000',
  },
  override: patientBreakers,
});
await t.app.listen({ host: '127.0.0.1', port: 0 });
const GATEWAY = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v1/gateway`;
const owner = t.infra.pools.owner;
beforeEach(() => provider.setBehaviour({ kind: 'reply' }));

const firstDelta = (text: string) => text.includes('event: delta');
/** The provider's answer goes on forever after two deltas: only a client that leaves ends it. */
const endless = () => provider.setBehaviour({ kind: 'stall', chunks: ['Part', ' of it'] });

/** Waits until the service has dropped its provider call (it saw the caller leave) and settled. */
async function serviceSawTheCallerLeave(): Promise<void> {
  await provider.lastRequest().closed;
  await new Promise((r) => setTimeout(r, 300));
}

async function buyer() {
  const user = await signUpAndIn(t.app);
  const key = (await call(t.app, { method: 'POST', url: '/api/keys', headers: user.headers, payload: { name: 'gw' } })).body.key as string;
  await buyOneCall(t.app, user, 'generate-text');
  return { user, auth: bearer(key) };
}
const grantStatuses = async (userId: string) => (await owner.query('select status from one_call_grants where user_id = $1', [userId])).rows.map((r) => r.status);

async function paidCredential(body: object) {
  const res = await fetch(GATEWAY, { method: 'POST', headers: { 'content-type': 'application/json', 'x-payment-method': 'mpp' }, body: JSON.stringify(body) });
  expect(res.status).toBe(402);
  const { nonce } = ((await res.json()) as { mpp: { nonce: string } }).mpp;
  return { nonce, ...(await payAndSign(payer, token, RECIPIENT, PRICE, nonce)) };
}
const paymentOf = async (nonce: string) => (await owner.query('select status, attempts from mpp_payments where challenge_nonce = $1', [nonce])).rows[0];

describe('a one-call purchase', () => {
  it('when the buyer reads the first delta of the stream and leaves, then the call is used: the next call is 402 and the grant stays consumed', async () => {
    const { user, auth } = await buyer();
    endless();
    const first = await streamedCall(GATEWAY, { body: { prompt: 'hello' }, headers: auth, until: firstDelta });
    expect(first).toMatchObject({ status: 200, left: true });
    expect(first.text).toContain('event: delta');
    await serviceSawTheCallerLeave();
    expect(await grantStatuses(user.id)).toEqual(['consumed']);
    provider.setBehaviour({ kind: 'reply' });
    const again = await streamedCall(GATEWAY, { body: { prompt: 'hello' }, headers: auth });
    expect(again.status).toBe(402);
    expect(JSON.parse(again.text)).toMatchObject({ error: 'payment_required' });
  });

  it('when the provider fails before any output, then 502 and the grant is paid again, usable once', async () => {
    const { user, auth } = await buyer();
    provider.setBehaviour({ kind: 'error', status: 500 });
    const failed = await streamedCall(GATEWAY, { body: { prompt: 'hello' }, headers: auth });
    expect(failed.status).toBe(502);
    expect(JSON.parse(failed.text)).toMatchObject({ code: 'PROVIDER_ERROR' });
    expect(await grantStatuses(user.id)).toEqual(['paid']);
    provider.setBehaviour({ kind: 'reply' });
    const served = await streamedCall(GATEWAY, { body: { prompt: 'hello' }, headers: auth });
    expect(served.status).toBe(200);
    expect(served.text).toContain('event: done');
    expect(await grantStatuses(user.id)).toEqual(['consumed']);
    expect((await streamedCall(GATEWAY, { body: { prompt: 'hello' }, headers: auth })).status).toBe(402);
  });

  it('when the provider fails mid-stream after the first delta, then the call is used (an error frame, no refund)', async () => {
    const { user, auth } = await buyer();
    provider.setBehaviour({ kind: 'stream-error', chunks: ['Half'] });
    const res = await streamedCall(GATEWAY, { body: { prompt: 'hello' }, headers: auth });
    expect(res.status).toBe(200);
    expect(res.text).toContain('event: error');
    expect(await grantStatuses(user.id)).toEqual(['consumed']);
  });
});

describe('an MPP payment', () => {
  it('when the payer reads the first delta and leaves, then the same credential is refused (402 CHALLENGE_USED): one payment, one answer', async () => {
    const body = { prompt: 'paid stream' };
    const { nonce, authorization } = await paidCredential(body);
    endless();
    const first = await streamedCall(GATEWAY, { body, headers: { authorization }, until: firstDelta });
    expect(first).toMatchObject({ status: 200, left: true });
    await serviceSawTheCallerLeave();
    expect(await paymentOf(nonce)).toEqual({ status: 'served', attempts: 1 });
    provider.setBehaviour({ kind: 'reply' });
    const again = await streamedCall(GATEWAY, { body, headers: { authorization } });
    expect(again.status).toBe(402);
    expect(JSON.parse(again.text)).toMatchObject({ error: 'payment_required', reason: 'CHALLENGE_USED' });
  });

  it('when the provider fails before any output, then the same credential retries once; a second failure gives no third try', async () => {
    const body = { prompt: 'flaky stream' };
    const { nonce, authorization } = await paidCredential(body);
    provider.setBehaviour({ kind: 'error', status: 500 });
    expect((await streamedCall(GATEWAY, { body, headers: { authorization } })).status).toBe(502);
    expect(await paymentOf(nonce)).toEqual({ status: 'failed', attempts: 1 });
    expect((await streamedCall(GATEWAY, { body, headers: { authorization } })).status).toBe(502);
    expect(await paymentOf(nonce)).toEqual({ status: 'failed', attempts: 2 });
    provider.setBehaviour({ kind: 'reply' });
    const third = await streamedCall(GATEWAY, { body, headers: { authorization } });
    expect(third.status).toBe(402);
    expect(JSON.parse(third.text)).toMatchObject({ reason: 'CHALLENGE_USED' });
  });

  it('when the provider fails once before any output, then the retry is served, and after it nothing more', async () => {
    const body = { prompt: 'one retry' };
    const { nonce, authorization } = await paidCredential(body);
    provider.setBehaviour({ kind: 'error', status: 500 });
    expect((await streamedCall(GATEWAY, { body, headers: { authorization } })).status).toBe(502);
    provider.setBehaviour({ kind: 'reply' });
    const retried = await streamedCall(GATEWAY, { body, headers: { authorization } });
    expect(retried.status).toBe(200);
    expect(retried.text).toContain('event: done');
    expect(await paymentOf(nonce)).toEqual({ status: 'served', attempts: 2 });
    expect((await streamedCall(GATEWAY, { body, headers: { authorization } })).status).toBe(402);
  });
});
