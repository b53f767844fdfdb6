import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Challenge } from 'mppx';
import * as evmClient from 'mppx/evm/client';
import { createPublicClient, createWalletClient, http, toHex, type Abi, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { base } from 'viem/chains';
import { MODEL, messages, PROVIDER_KEY } from './ai-chat.bench.js';
import { benchDatabase, buildService, freePort, startBenchService, startFakeProvider, stopProcess } from './support.js';

const ROOT = join(import.meta.dirname, '..');
const ANVIL = join(ROOT, 'node_modules', '@foundry-rs', 'anvil-linux-amd64', 'bin', 'anvil');
const TOKEN = JSON.parse(readFileSync(join(ROOT, 'test', 'support', 'chain', 'contracts.json'), 'utf8')).contracts.TestEIP3009Token as { abi: Abi; bytecode: Hex };
const TYPES = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/**
 * A call paid with MPP's `evm` authorization as mppx signs it, against the chain's own confirmation
 * time: anvil (chain 8453), a USDC-shaped EIP-3009 token, the compiled service with MPP and a
 * settler, a fake OpenAI server behind generate-text. Interleaved, `payments` times: the chain's own
 * time is a wallet submitting a signed authorization itself and reading its receipt; the paid call
 * is POST /api/v1/gateway with mppx's credential for a 402 asked just before (the 402 and the
 * signing are not timed), answered 200 once the service has bound, consumed, checked, recorded,
 * settled and confirmed it and the plugin has answered.
 */
export async function benchGatewayMppEvm(opts: { payments: number }) {
  const port = await freePort();
  const anvil = spawn(ANVIL, ['--port', String(port), '--host', '127.0.0.1', '--chain-id', '8453', '--silent'], { stdio: 'ignore' });
  const db = await benchDatabase();
  const { child: provider, baseUrl: providerBase } = await startFakeProvider(PROVIDER_KEY);
  let service: Awaited<ReturnType<typeof startBenchService>> | null = null;
  try {
    const rpcUrl = `http://127.0.0.1:${port}`;
    const reader = createPublicClient({ chain: base, transport: http(rpcUrl), cacheTime: 0 });
    for (let i = 0; ; i++) {
      if (await reader.getChainId().then(() => true, () => false)) break;
      if (i > 300) throw new Error('anvil did not start');
      await new Promise((r) => setTimeout(r, 50));
    }
    const fund = (a: Address) => reader.request({ method: 'anvil_setBalance' as never, params: [a, '0x56BC75E2D63100000'] as never });
    const deployer = privateKeyToAccount(generatePrivateKey());
    await fund(deployer.address);
    const wallet = createWalletClient({ account: deployer, chain: base, transport: http(rpcUrl), cacheTime: 0 });
    const receipt = async (hash: Hex) => {
      for (;;) {
        const r = await reader.getTransactionReceipt({ hash }).catch(() => null);
        if (r) return r;
        await new Promise((res) => setTimeout(res, 5));
      }
    };
    const token = (await receipt(await wallet.deployContract({ abi: TOKEN.abi, bytecode: TOKEN.bytecode, args: ['USD Coin', 'USDC'] }))).contractAddress!;
    const payer = privateKeyToAccount(generatePrivateKey());
    await receipt(await wallet.writeContract({ address: token, abi: TOKEN.abi, functionName: 'mint', args: [payer.address, 10n ** 15n] }));
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const settlerKey = generatePrivateKey();
    await fund(privateKeyToAccount(settlerKey).address);

    service = await startBenchService(buildService(), db.url, 'api', {
      RATE_LIMIT_GATEWAY: '100000000', OPENAI_API_KEY: PROVIDER_KEY, OPENAI_BASE_URL: providerBase,
      MPP_RPC_URL: rpcUrl, MPP_TOKEN_ADDRESS: token, MPP_RECIPIENT: recipient, MPP_SETTLER_PRIVATE_KEY: settlerKey,
    });
    const url = `${service.base}/api/v1/gateway`;
    const body = JSON.stringify({ plugin: 'generate-text', messages, model: MODEL });
    const headers = { 'content-type': 'application/json' };
    const mppx = evmClient.charge({ account: payer, authorization: { name: 'USD Coin', version: '2' }, networks: [8453] });
    /** A fresh 402 and mppx's credential for it (not timed). */
    const credential = async () => {
      const offer = await fetch(url, { method: 'POST', headers: { ...headers, 'x-payment-method': 'mpp' }, body });
      await offer.arrayBuffer();
      const header = offer.headers.get('www-authenticate') ?? '';
      if (offer.status !== 402 || !header.includes('method="evm"')) return null;
      const [challenge] = Challenge.deserializeList(header);
      return (await mppx.createCredential({ challenge: challenge as never, context: {} as never })) as string;
    };
    if (!(await credential())) {
      console.log("\nGateway MPP evm: skipped, the 402 carried no mppx challenge");
      return null;
    }
    const price = BigInt(10_000); // MPP_PRICE_GENERATE_TEXT's default, 0.01 at 6 decimals

    const chainOnly: number[] = [];
    const paid: number[] = [];
    for (let i = 0; i < opts.payments + 2; i++) {
      const now = BigInt(Math.floor(Date.now() / 1000));
      const m = { from: payer.address, to: recipient, value: price, validAfter: 0n, validBefore: now + 300n, nonce: toHex(crypto.getRandomValues(new Uint8Array(32))) };
      const signature = await payer.signTypedData({ domain: { name: 'USD Coin', version: '2', chainId: 8453, verifyingContract: token }, types: TYPES, primaryType: 'TransferWithAuthorization', message: m });
      let t = performance.now();
      await receipt(await wallet.writeContract({ address: token, abi: TOKEN.abi, functionName: 'transferWithAuthorization', args: [m.from, m.to, m.value, m.validAfter, m.validBefore, m.nonce, signature] }));
      const c = performance.now() - t;

      const authorization = (await credential())!;
      t = performance.now();
      const res = await fetch(url, { method: 'POST', headers: { ...headers, authorization }, body });
      await res.arrayBuffer();
      const p = performance.now() - t;
      if (res.status !== 200) throw new Error(`a paid call answered ${res.status}`);
      if (i >= 2) (chainOnly.push(c), paid.push(p));
    }
    chainOnly.sort((a, b) => a - b);
    paid.sort((a, b) => a - b);
    const c50 = percentile(chainOnly, 50), c99 = percentile(chainOnly, 99), p50 = percentile(paid, 50), p99 = percentile(paid, 99);
    console.log(`\nGateway MPP evm: ${opts.payments} calls paid with mppx's evm authorization (generate-text, fake provider) vs an authorization settled by a wallet itself, interleaved, anvil`);
    console.log(`  chain's own confirmation (send + receipt)  p50 ${c50.toFixed(2)} ms, p99 ${c99.toFixed(2)} ms`);
    console.log(`  paid call (bind, consume, check, record, settle, confirm, serve)  p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms`);
    console.log(`  added by the service  p50 ${(p50 - c50).toFixed(2)} ms, p99 ${(p99 - c99).toFixed(2)} ms`);
    return { c50, c99, p50, p99 };
  } finally {
    if (service) await stopProcess(service.child);
    provider.kill('SIGTERM');
    anvil.kill('SIGTERM');
    await db.drop();
  }
}
