import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createPublicClient, createWalletClient, http, type Abi, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { base } from 'viem/chains';
import { ViemMppPaymentVerifier } from '../src/adapters/outbound/chain/viem-mpp-payment-verifier.js';
import { freePort } from './support.js';

const ROOT = join(import.meta.dirname, '..');
const ANVIL = join(ROOT, 'node_modules', '@foundry-rs', 'anvil-linux-amd64', 'bin', 'anvil');
const TOKEN = JSON.parse(readFileSync(join(ROOT, 'test', 'support', 'chain', 'contracts.json'), 'utf8')).contracts.TestERC20 as { abi: Abi; bytecode: Hex };

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/**
 * MPP verification latency against anvil (chain id 8453): `payments` real ERC-20 transfers, each
 * verified once by the service's verifier (receipt, uncached block number, block, Transfer logs),
 * sequentially; the baseline is one bare RPC round trip (`eth_blockNumber`) to the same node,
 * measured interleaved. The generate-text overhead part of issue 10's benchmark is
 * gateway-overhead.bench.ts (run right after this one under BENCH_ONLY=gateway).
 */
export async function benchGateway(opts: { payments: number }) {
  const port = await freePort();
  const anvil = spawn(ANVIL, ['--port', String(port), '--host', '127.0.0.1', '--chain-id', '8453', '--silent'], { stdio: 'ignore' });
  try {
    const rpcUrl = `http://127.0.0.1:${port}`;
    const reader = createPublicClient({ chain: base, transport: http(rpcUrl), cacheTime: 0 });
    for (let i = 0; ; i++) {
      if (await reader.getChainId().then(() => true, () => false)) break;
      if (i > 300) throw new Error('anvil did not start');
      await new Promise((r) => setTimeout(r, 50));
    }
    const account = privateKeyToAccount(generatePrivateKey());
    await reader.request({ method: 'anvil_setBalance' as never, params: [account.address, '0x56BC75E2D63100000'] as never });
    const wallet = createWalletClient({ account, chain: base, transport: http(rpcUrl), cacheTime: 0, pollingInterval: 20 });
    const deployed = await reader.waitForTransactionReceipt({ hash: await wallet.deployContract({ abi: TOKEN.abi, bytecode: TOKEN.bytecode, args: ['Bench', 'BUSD', 6] }), pollingInterval: 20 });
    const token = deployed.contractAddress!;
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    await reader.waitForTransactionReceipt({ hash: await wallet.writeContract({ address: token, abi: TOKEN.abi, functionName: 'mint', args: [account.address, 10n ** 15n] }), pollingInterval: 20 });
    const notBefore = new Date(Date.now() - 60_000);
    const hashes: Hex[] = [];
    for (let i = 0; i < opts.payments; i++) {
      const hash = await wallet.writeContract({ address: token, abi: TOKEN.abi, functionName: 'transfer', args: [recipient, 10_000n] });
      await reader.waitForTransactionReceipt({ hash, pollingInterval: 20 });
      hashes.push(hash);
    }

    const verifier = new ViemMppPaymentVerifier(rpcUrl, 10_000);
    const verify: number[] = [];
    const roundTrip: number[] = [];
    for (const transaction of hashes) {
      let t = performance.now();
      await reader.getBlockNumber({ cacheTime: 0 });
      roundTrip.push(performance.now() - t);
      t = performance.now();
      await verifier.verify({ transaction, token, recipient, minAmount: 10_000n, notBefore, confirmations: 1 });
      verify.push(performance.now() - t);
    }
    verify.sort((a, b) => a - b);
    roundTrip.sort((a, b) => a - b);
    const v50 = percentile(verify, 50), v99 = percentile(verify, 99), r50 = percentile(roundTrip, 50), r99 = percentile(roundTrip, 99);
    console.log(`\nGateway: MPP payment verification against anvil, ${opts.payments} payments verified sequentially (viem, uncached)`);
    console.log(`  verify        p50 ${v50.toFixed(2)} ms, p99 ${v99.toFixed(2)} ms`);
    console.log(`  one RPC call  p50 ${r50.toFixed(2)} ms, p99 ${r99.toFixed(2)} ms (baseline)`);
    console.log(`  ratio         p50 ${(v50 / r50).toFixed(2)}x, p99 ${(v99 / r99).toFixed(2)}x (verify makes 3 RPC calls in 2 sequential steps: the receipt, then the block number and the block together)`);
  } finally {
    anvil.kill('SIGTERM');
  }
}
