import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { patientBreakers, subscribe, unitsUsed } from '../support/ai/chat-fixtures.js';
import { startFakeOpenAiServer } from '../support/ai/fake-openai-server.js';
import { startLocalChain } from '../support/chain/local-chain.js';
import { deployTestToken, fundedPayer } from '../support/chain/test-token.js';
import { paymentAuthorization } from '../support/gateway/payment-credential.js';
import { bearer, call, signUpAndIn } from '../support/http-client.js';
import { startTestApp } from '../support/test-app.js';

/**
 * The gateway end to end with the service's own plugins (no test plugin): generate-text over a
 * local OpenAI-format provider, paid by a subscription (metered: reserved then settled, or
 * released on a provider failure) or on chain by a stranger (nothing metered).
 */
const PLATFORM_KEY = 'sk-or-gateway-e2e';
const provider = await startFakeOpenAiServer({ apiKey: PLATFORM_KEY });
afterAll(() => provider.close());
const chain = await startLocalChain();
const token = await deployTestToken(chain);
const RECIPIENT = privateKeyToAccount(generatePrivateKey()).address;
const payer = await fundedPayer(chain, [token], 10n ** 12n);
const { app, container, infra } = await startTestApp({
  env: {
    OPENROUTER_API_KEY: PLATFORM_KEY, OPENROUTER_BASE_URL: provider.baseUrl, RATE_LIMIT_GATEWAY: '100000',
    MPP_RPC_URL: chain.rpcUrl, MPP_TOKEN_ADDRESS: token.address, MPP_RECIPIENT: RECIPIENT, MPP_RPC_TIMEOUT_MS: '15000',
  },
  override: patientBreakers,
});
const owner = infra.pools.owner;
beforeEach(() => provider.setBehaviour({ kind: 'reply' }));

const gateway = (payload: object, headers: Record<string, string> = {}) =>
  call(app, { method: 'POST', url: '/api/v1/gateway', headers: { 'content-type': 'application/json', ...headers }, payload });

async function subscriber() {
  const user = await signUpAndIn(app);
  const key = (await call(app, { method: 'POST', url: '/api/keys', headers: user.headers, payload: { name: 'gw' } })).body.key as string;
  await subscribe(owner, user.id, 'label');
  return { user, auth: bearer(key) };
}

describe('the gateway with the real generate-text plugin', () => {
  it('when a subscriber asks, then 200 with the generated text, and one unit metered', async () => {
    const { user, auth } = await subscriber();
    const res = await gateway({ prompt: 'Say hello' }, auth);
    expect(res).toMatchObject({ status: 200, body: { plugin: 'generate-text', message: 'Hello, world!', payment: { method: 'stripe', receipt: null } } });
    expect((await unitsUsed(container, user.id)).used).toBe(1);
  });

  it("when the provider fails, then 502 PROVIDER_ERROR and the subscriber's reservation is released", async () => {
    const { user, auth } = await subscriber();
    provider.setBehaviour({ kind: 'error', status: 500 });
    expect(await gateway({ prompt: 'Say hello' }, auth)).toMatchObject({ status: 502, body: { code: 'PROVIDER_ERROR' } });
    expect((await unitsUsed(container, user.id)).used).toBe(0);
    expect((await owner.query(`select status from usage_reservations where payer = $1`, [user.id])).rows).toEqual([{ status: 'released' }]);
  });

  it('when a stranger pays on chain, then 200 with the generated text and the receipt, nothing metered to anyone', async () => {
    const challenge = await gateway({ prompt: 'Say hello' }, { 'x-payment-method': 'mpp' });
    expect(challenge.status).toBe(402);
    const tx = await payer.transfer(token, RECIPIENT, 10_000n);
    const before = (await owner.query('select count(*)::int n from usage_reservations')).rows[0].n;
    const credential = paymentAuthorization({ transaction: tx, challengeNonce: challenge.body.mpp.nonce, signature: await payer.sign(challenge.body.mpp.nonce) });
    const res = await gateway({ prompt: 'Say hello' }, { authorization: credential });
    expect(res).toMatchObject({ status: 200, body: { message: 'Hello, world!', payment: { method: 'mpp', receipt: tx } } });
    expect(res.headers['payment-receipt']).toBe(tx);
    expect((await owner.query('select count(*)::int n from usage_reservations')).rows[0].n).toBe(before);
  });
});
