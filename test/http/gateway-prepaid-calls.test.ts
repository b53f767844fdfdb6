import type { AddressInfo } from 'node:net';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { patientBreakers, subscribe } from '../support/ai/chat-fixtures.js';
import { startFakeOpenAiServer } from '../support/ai/fake-openai-server.js';
import { startLocalChain } from '../support/chain/local-chain.js';
import { deployTestToken, fundedPayer } from '../support/chain/test-token.js';
import { buyOneCall } from '../support/gateway/one-call-purchase.js';
import { payAndSign } from '../support/gateway/payment-credential.js';
import { streamedCall } from '../support/gateway/streamed-call.js';
import { bearer, call, signUpAndIn } from '../support/http-client.js';
import { sleep } from '../support/polling.js';
import { startTestApp } from '../support/test-app.js';
import { lowRateMp3, wavClaimingShorter } from '../support/ai/wav.js';

/**
 * Prepaid calls (a one-call purchase, or an MPP payment; CONTRACT.md section 7 "prepaid calls"),
 * against the service on a port with the real plugins over a local OpenAI-format provider and MPP
 * paid on a local chain. A payment is spent once its answer has begun to reach the caller,
 * performed as an attacker would over real HTTP: read the first delta, leave, ask again. Only the
 * provider failing before any output gives the payment back, once for MPP. And a prepaid call's
 * size is bounded, checked before any challenge is issued or payment taken.
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

/** Waits until the service has dropped its provider call: it saw the caller leave. */
const serviceSawTheCallerLeave = () => provider.lastRequest().closed;
/**
 * A negative: a grant the caller used stays as it is, so only a wrong give-back would write
 * anything; it would land within this short pause after the service dropped the provider call.
 */
const giveBackWouldHaveLanded = () => sleep(300);

async function buyer(plugin = 'generate-text') {
  const user = await signUpAndIn(t.app);
  const key = (await call(t.app, { method: 'POST', url: '/api/keys', headers: user.headers, payload: { name: 'gw' } })).body.key as string;
  await buyOneCall(t.app, user, plugin);
  return { user, auth: bearer(key) };
}
const grantStatuses = async (userId: string) => (await owner.query('select status from one_call_grants where user_id = $1', [userId])).rows.map((r) => r.status);
const gateway = (payload: object, headers: Record<string, string> = {}) =>
  call(t.app, { method: 'POST', url: '/api/v1/gateway', headers: { 'content-type': 'application/json', ...headers }, payload });
const challengeCount = async () => (await owner.query('select count(*)::int n from mpp_challenges')).rows[0].n;

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
    await giveBackWouldHaveLanded();
    expect(await grantStatuses(user.id)).toEqual(['consumed']);
    provider.setBehaviour({ kind: 'reply' });
    const again = await streamedCall(GATEWAY, { body: { prompt: 'hello' }, headers: auth });
    expect(again.status).toBe(402);
    expect(JSON.parse(again.text)).toMatchObject({ error: 'payment_required' });
  });

  it('when the buyer leaves a non-streamed call before its answer, then the call is used too (the work was asked for)', async () => {
    const { user, auth } = await buyer();
    provider.setBehaviour({ kind: 'stall' });
    const requests = provider.requests.length;
    const leaving = new AbortController();
    const pending = fetch(GATEWAY, { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify({ prompt: 'hello' }), signal: leaving.signal });
    await expect.poll(() => provider.requests.length, { interval: 20 }).toBeGreaterThan(requests);
    leaving.abort();
    await pending.catch(() => undefined);
    await serviceSawTheCallerLeave();
    await giveBackWouldHaveLanded();
    expect(await grantStatuses(user.id)).toEqual(['consumed']);
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
    expect(first, first.text).toMatchObject({ status: 200, left: true });
    await serviceSawTheCallerLeave();
    await expect.poll(() => paymentOf(nonce)).toEqual({ status: 'served', attempts: 1 });
    provider.setBehaviour({ kind: 'reply' });
    const again = await streamedCall(GATEWAY, { body, headers: { authorization } });
    expect(again.status).toBe(402);
    expect(JSON.parse(again.text)).toMatchObject({ error: 'payment_required', reason: 'CHALLENGE_USED' });
  });

  it('when the provider fails before any output, then the same credential retries once; a second failure gives no third try', async () => {
    const body = { prompt: 'flaky stream' };
    const { nonce, authorization } = await paidCredential(body);
    provider.setBehaviour({ kind: 'error', status: 500 });
    const failed = await streamedCall(GATEWAY, { body, headers: { authorization } });
    expect(failed.status, failed.text).toBe(502);
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

describe('the size of a prepaid call', () => {
  const refusedFor = (res: Awaited<ReturnType<typeof gateway>>, path: string, bound: RegExp) => {
    expect({ status: res.status, code: res.body.code, details: res.body.details }).toEqual({ status: 400, code: 'VALIDATION_ERROR', details: [{ path, message: expect.stringMatching(bound) }] });
    expect(res.body.error).toMatch(bound);
  };

  it('when a buyer of one call asks for more max_tokens or a longer prompt than GATEWAY_PREPAID_*, then 400 naming the bound, and the grant is still theirs', async () => {
    const { user, auth } = await buyer();
    const requests = provider.requests.length;
    refusedFor(await gateway({ prompt: 'hi', max_tokens: 1_000_000 }, auth), 'max_tokens', /at most 4096 max_tokens \(GATEWAY_PREPAID_MAX_TOKENS\)/);
    refusedFor(await gateway({ prompt: 'x'.repeat(32_001) }, auth), 'prompt', /at most 32000 characters \(GATEWAY_PREPAID_MAX_INPUT_CHARS\)/);
    // the messages' text counts together
    const messages = [{ role: 'system', content: 'y'.repeat(20_000) }, { role: 'user', content: 'z'.repeat(12_001) }];
    refusedFor(await gateway({ messages }, auth), 'messages', /GATEWAY_PREPAID_MAX_INPUT_CHARS/);
    expect(provider.requests.length).toBe(requests);
    expect(await grantStatuses(user.id)).toEqual(['paid']);
    // within the bounds the grant pays, and a call naming no max_tokens gets the bound, not the provider's default
    expect((await gateway({ prompt: 'x'.repeat(32_000) }, auth)).status).toBe(200);
    expect(provider.lastRequest().body.max_tokens).toBe(4096);
    expect(await grantStatuses(user.id)).toEqual(['consumed']);
  });

  it('when a caller without a grant sends an oversized body, then 400 rather than a 402 offering to sell it', async () => {
    const { auth } = await buyer('tts');
    const before = await challengeCount();
    refusedFor(await gateway({ prompt: 'hi', max_tokens: 4097 }, auth), 'max_tokens', /4096/);
    refusedFor(await gateway({ prompt: 'hi', max_tokens: 4097 }, { 'x-payment-method': 'mpp' }), 'max_tokens', /4096/);
    expect(await challengeCount()).toBe(before);
  });

  it('when a prepaid agent task asks for more than its default steps or a longer task, then 400; its model calls are bounded', async () => {
    const { user, auth } = await buyer('agent');
    refusedFor(await gateway({ task: 'plan', maxSteps: 4 }, { ...auth, 'x-plugin-id': 'agent' }), 'maxSteps', /at most 3 steps/);
    refusedFor(await gateway({ task: 'plan', maxSteps: 10 }, { 'x-plugin-id': 'agent', 'x-payment-method': 'mpp' }), 'maxSteps', /at most 3 steps/);
    expect(await grantStatuses(user.id)).toEqual(['paid']);
    const requests = provider.requests.length;
    const res = await gateway({ task: 'plan', maxSteps: 3 }, { ...auth, 'x-plugin-id': 'agent' });
    expect(res).toMatchObject({ status: 200, body: { steps: 3 } });
    expect(provider.requests.slice(requests).map((r) => r.body.max_tokens)).toEqual([4096, 4096, 4096]);
  });

  it('attack: when a prepaid stt call carries more minutes than its price covers in few bytes (the lowest MP3 rate, a WAV header claiming a higher rate, a format whose length is unread), then 400 before any payment', async () => {
    const { user, auth } = await buyer('stt');
    const stt = { ...auth, 'x-plugin-id': 'stt' };
    const mpp = { 'x-plugin-id': 'stt', 'x-payment-method': 'mpp' };
    const b64 = (b: Buffer) => b.toString('base64');
    const before = await challengeCount();
    // ten minutes at 8 kbit/s: 600 KB, within the body limit, five times what the price is for
    const tenMinutes = b64(lowRateMp3(600));
    refusedFor(await gateway({ audio: tenMinutes }, stt), 'audio', /at most 120 seconds of audio \(GATEWAY_PREPAID_MAX_AUDIO_SECONDS\); this one plays 600/);
    refusedFor(await gateway({ audio: tenMinutes }, mpp), 'audio', /GATEWAY_PREPAID_MAX_AUDIO_SECONDS/);
    refusedFor(await gateway({ audio: b64(wavClaimingShorter(300, 100)), format: 'wav' }, stt), 'audio', /this one plays 300/);
    refusedFor(await gateway({ audio: b64(Buffer.from('OggS'.repeat(20_000), 'latin1')), format: 'ogg' }, stt), 'audio', /WAV \(uncompressed\) or MP3/);
    expect(await grantStatuses(user.id)).toEqual(['paid']);
    expect(await challengeCount()).toBe(before);
    // within the bound, the payment is asked for
    expect((await gateway({ audio: b64(lowRateMp3(100)) }, mpp)).status).toBe(402);
    expect(await challengeCount()).toBe(before + 1);
  });

  it('when the caller is a subscriber (metered), then the prepaid bounds do not apply', async () => {
    const user = await signUpAndIn(t.app);
    const key = (await call(t.app, { method: 'POST', url: '/api/keys', headers: user.headers, payload: { name: 'gw' } })).body.key as string;
    await subscribe(owner, user.id, 'label');
    expect((await gateway({ prompt: 'hi', max_tokens: 8000 }, bearer(key))).status).toBe(200);
    expect(provider.lastRequest().body.max_tokens).toBe(8000);
  });
});
