import type { Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, describe, expect, it } from 'vitest';
import { ReconcileInstances } from '../../../src/application/instances/reconcile-instances.use-case.js';
import { chat, patientBreakers, subscribe } from '../../support/ai/chat-fixtures.js';
import { startFakeOpenAiServer } from '../../support/ai/fake-openai-server.js';
import { startLocalChain } from '../../support/chain/local-chain.js';
import { startRpcSwitch } from '../../support/chain/rpc-switch.js';
import { deployTestToken } from '../../support/chain/test-token.js';
import { call, signIn, signUpAndIn, type SignedIn } from '../../support/http-client.js';
import { startTestApp } from '../../support/test-app.js';

/**
 * Slow wallet sends do not starve the pools everyone shares. Twenty users send at once through a
 * node that answers each call 1.5 s late (a far or overloaded RPC provider); meanwhile sign-in, a
 * paid chat, an instance lease renewal and the health check must each answer as fast as they do on
 * an idle service. With the default pool size (10: 5 system connections) a send that held one
 * connection across its node calls took them all.
 */
const KEY = 'sk-or-pool-key';
const provider = await startFakeOpenAiServer({ apiKey: KEY });
afterAll(() => provider.close());
const chain = await startLocalChain();
const token = await deployTestToken(chain);
const node = await startRpcSwitch(chain.rpcUrl);
const { app, infra, container } = await startTestApp({
  env: { BASE_RPC_URL: node.url, WALLET_TOKEN_ADDRESS: token.address, WALLET_RPC_TIMEOUT_MS: '20000', OPENROUTER_API_KEY: KEY, OPENROUTER_BASE_URL: provider.baseUrl },
  override: patientBreakers,
});

const USDC = 1_000_000n;
const SENDERS = 20;
/** Generous for one request on a loaded 2-core machine; a pool taken by sends makes it 5 s or an error. */
const PROMPT_MS = 2500;

async function fundedSender(): Promise<SignedIn> {
  const user = await signUpAndIn(app);
  const address = (await call(app, { method: 'POST', url: '/api/wallet', headers: user.headers, payload: { action: 'create' } })).body.address as Address;
  await chain.client.test.setBalance({ address, value: 10n ** 18n });
  await chain.write(token, 'mint', [address, 10n * USDC]);
  return user;
}

/** How long `work` took, and what it answered. */
async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = Date.now();
  const value = await work();
  return { ms: Date.now() - started, value };
}

describe('slow wallet sends and the shared pools', () => {
  it('when twenty users send through a slow node, then sign-in, a paid chat, a lease renewal and the health check still answer promptly, and every send is paid', async () => {
    // one after another: the test's own deployer mints, one nonce at a time
    const senders: SignedIn[] = [];
    for (let i = 0; i < SENDERS; i++) senders.push(await fundedSender());
    const talker = await signUpAndIn(app);
    const subscription = await subscribe(infra.pools.owner, talker.id, 'label');
    const recipients = senders.map(() => privateKeyToAccount(generatePrivateKey()).address);

    node.setDelayMs(1500);
    const sends = senders.map((user, i) => call(app, { method: 'POST', url: '/api/skills/usdc-payments', headers: user.headers, payload: { action: 'send', to: recipients[i], amount: '1' } }));
    // twice while the sends are in their node calls (each makes several, 1.5 s apiece), all four at once
    const slow: [string, number][] = [];
    for (const at of [2500, 3000]) {
      await new Promise((r) => setTimeout(r, at));
      const [signInAgain, paidChat, lease, health] = await Promise.all([
        timed(() => signIn(app, talker.email, talker.password)),
        timed(() => chat(app, talker, { plan: 'label', subscription })),
        timed(() => container.resolve(ReconcileInstances).renewLeases()),
        timed(() => call(app, { method: 'GET', url: '/health' })),
      ]);
      expect(paidChat.value.status).toBe(200);
      expect(health.value).toMatchObject({ status: 200, body: { database: 'up' } });
      const times = { signIn: signInAgain.ms, chat: paidChat.ms, lease: lease.ms, health: health.ms };
      slow.push(...Object.entries(times).filter(([, ms]) => ms > PROMPT_MS));
    }
    expect(slow).toEqual([]);

    const answers = await Promise.all(sends);
    expect(answers.map((a) => [a.status, a.body.status])).toEqual(answers.map(() => [200, 'confirmed']));
    for (const to of recipients) expect(await chain.client.readContract({ address: token.address, abi: token.abi, functionName: 'balanceOf', args: [to] })).toBe(USDC);
  }, 180_000);
});
