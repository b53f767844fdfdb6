import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, describe, expect, it } from 'vitest';
import { startLocalChain } from '../../support/chain/local-chain.js';
import { startRpcSwitch } from '../../support/chain/rpc-switch.js';
import { deployTestToken } from '../../support/chain/test-token.js';
import { request, signUpOverWire } from '../../support/faults/wire-client.js';
import { until } from '../../support/polling.js';
import { spawnService } from '../../support/service-process.js';

/**
 * Two service processes on one database send from the same user's wallet at the same moment. A
 * lock held in one process only would let both read the same next nonce, and one transfer would
 * be refused by the node (502); the wallet's send lock lives in PostgreSQL, so every send succeeds.
 */
const chain = await startLocalChain();
const token = await deployTestToken(chain);
// a node 40 ms away: between reading the next nonce and broadcasting, a sender makes several calls
const node = await startRpcSwitch(chain.rpcUrl);
node.setDelayMs(40);
const spawned: Awaited<ReturnType<typeof spawnService>>[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const s of spawned) {
    if (s.child.exitCode === null && s.child.signalCode === null) {
      s.child.kill('SIGTERM');
      await Promise.race([s.exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (s.child.exitCode === null) s.child.kill('SIGKILL');
    }
  }
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function start(databaseUrl?: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-host-wallet-'));
  dirs.push(dataDir);
  const service = await spawnService(
    {
      // api only: no worker takes the payouts' recovery jobs, so each send is the request's own
      SERVICE_ROLE: 'api',
      DATA_DIR: dataDir,
      RUNTIME_RUN_AS_USER: '',
      BASE_RPC_URL: node.url,
      WALLET_TOKEN_ADDRESS: token.address,
      WALLET_RPC_TIMEOUT_MS: '10000',
      RATE_LIMIT_AUTH: '100000',
      RATE_LIMIT_AGENTS: '100000',
    },
    databaseUrl ? { databaseUrl } : {},
  );
  spawned.push(service);
  await until('the service to start', 60_000, () => service.output.includes('"msg":"service started"') || service.child.exitCode !== null);
  if (service.child.exitCode !== null) throw new Error(`service exited:\n${service.output.slice(-3000)}`);
  return service;
}

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
