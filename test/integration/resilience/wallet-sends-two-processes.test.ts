import type { Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { startLocalChain } from '../../support/chain/local-chain.js';
import { startRpcSwitch } from '../../support/chain/rpc-switch.js';
import { deployTestToken } from '../../support/chain/test-token.js';
import { faultServices } from '../../support/faults/fault-services.js';
import { request, signUpOverWire } from '../../support/faults/wire-client.js';

/**
 * Two service processes on one database send from the same user's wallet at the same moment. A
 * lock held in one process only would let both read the same next nonce, and one transfer would
 * be refused by the node (502); the database hands out the wallet's nonces (decision 0416), so every
 * send succeeds.
 */
const chain = await startLocalChain();
const token = await deployTestToken(chain);
// a node 40 ms away: between reading the next nonce and broadcasting, a sender makes several calls
const node = await startRpcSwitch(chain.rpcUrl);
node.setDelayMs(40);
const services = faultServices();

const start = async (databaseUrl?: string) =>
  (
    await services.start(
      {
        // api only: no worker takes the payouts' recovery jobs, so each send is the request's own
        SERVICE_ROLE: 'api',
        BASE_RPC_URL: node.url,
        WALLET_TOKEN_ADDRESS: token.address,
        WALLET_RPC_TIMEOUT_MS: '10000',
        RATE_LIMIT_AUTH: '100000',
        RATE_LIMIT_AGENTS: '100000',
      },
      databaseUrl ? { databaseUrl } : {},
    )
  ).service;

const tokenBalance = async (address: string) => (await chain.client.readContract({ address: token.address, abi: token.abi, functionName: 'balanceOf', args: [address as Address] })) as bigint;

describe('sends from one wallet through two service processes', () => {
  it('when two processes on one database send from the same wallet at once, then every send succeeds once and each recipient holds its amount', async () => {
    const first = await start();
    const second = await start(first.databaseUrl);
    const user = await signUpOverWire(first.base);
    const created = await request(first.base, 'create wallet', 'POST', '/api/wallet', { headers: user.headers, body: { action: 'create' } });
    const address = created.body.address as Address;
    await chain.client.test.setBalance({ address, value: 10n ** 18n });
    await chain.write(token, 'mint', [address, 1_000_000_000n]);

    const PER_PROCESS = 4;
    const sends = [first, second].flatMap((service, p) =>
      Array.from({ length: PER_PROCESS }, (_, i) => {
        const to = privateKeyToAccount(generatePrivateKey()).address;
        const amount = `${p * PER_PROCESS + i + 1}`;
        return { to, units: BigInt(amount) * 1_000_000n, answer: request(service.base, `send ${p}/${i}`, 'POST', '/api/skills/usdc-payments', { headers: user.headers, body: { action: 'send', to, amount } }) };
      }),
    );
    const answers = await Promise.all(sends.map((s) => s.answer));
    expect(answers.map((a) => [a.status, a.body?.status ?? a.body?.code])).toEqual(answers.map(() => [200, 'confirmed']));
    expect(new Set(answers.map((a) => a.body.transactionHash)).size).toBe(sends.length);
    for (const s of sends) expect(await tokenBalance(s.to)).toBe(s.units);
    expect(await tokenBalance(address)).toBe(1_000_000_000n - sends.reduce((a, s) => a + s.units, 0n));
  }, 180_000);
});
