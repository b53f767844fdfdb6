import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { createTestClient, createWalletClient, http, publicActions, type Abi, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { base } from 'viem/chains';
import { cleanUpLater } from '../cleanup.js';
import { freePort } from '../free-port.js';

const ANVIL = join(import.meta.dirname, '..', '..', '..', 'node_modules', '@foundry-rs', 'anvil-linux-amd64', 'bin', 'anvil');
/** A fresh key per run, funded through anvil_setBalance: no well-known key in the code. */
const DEPLOYER = privateKeyToAccount(generatePrivateKey());

interface Artifact {
  abi: Abi;
  bytecode: Hex;
}
/** Compiled by scripts/compile-test-contracts.mjs from ./contracts/*.sol. */
const ARTIFACTS = JSON.parse(readFileSync(join(import.meta.dirname, 'contracts.json'), 'utf8')).contracts as Record<string, Artifact>;

export type ContractName = 'TestEAS' | 'TestEIP3009Token' | 'TestERC20' | 'TestSmartWallet' | 'TestSmartWalletFactory' | 'TestUniversalResolver';

export interface LocalChain {
  rpcUrl: string;
  /** viem clients on the chain; caching off so a write is seen by the next read at once. */
  client: ReturnType<typeof makeClient>;
  deploy(name: ContractName, args?: readonly unknown[]): Promise<{ address: Address; abi: Abi }>;
  /** Sends a transaction from the deployer and waits for its receipt. */
  write(contract: { address: Address; abi: Abi }, functionName: string, args: readonly unknown[]): Promise<void>;
  stop(): Promise<void>;
}

const makeClient = (rpcUrl: string) =>
  createWalletClient({ account: DEPLOYER, chain: base, transport: http(rpcUrl), cacheTime: 0, pollingInterval: 50 })
    .extend(publicActions)
    .extend(() => ({ test: createTestClient({ chain: base, mode: 'anvil', transport: http(rpcUrl) }) }));

/**
 * A real EVM on this machine: anvil on a free port with Base's chain id (8453), mining each
 * transaction at once. Stopped after the test (or the file) that started it.
 */
export async function startLocalChain(): Promise<LocalChain> {
  const port = await freePort();
  const child = spawn(ANVIL, ['--port', String(port), '--host', '127.0.0.1', '--chain-id', '8453', '--silent'], { stdio: 'ignore' });
  // also when the file fails before its cleanup hooks run: a worker's exit never leaves anvil behind
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`anvil exited early (${code})`))));
  const deadline = Date.now() + 15_000;
  while (!(await Promise.race([answers(port), exited]))) {
    if (Date.now() > deadline) throw new Error('anvil did not answer within 15 s');
    await new Promise((r) => setTimeout(r, 50));
  }
  exited.catch(() => {});
  const rpcUrl = `http://127.0.0.1:${port}`;
  const client = makeClient(rpcUrl);
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    process.off('exit', killOnExit);
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await gone;
  };
  cleanUpLater(stop);
  await client.test.setBalance({ address: DEPLOYER.address, value: 10n ** 21n });
  return {
    rpcUrl,
    client,
    async deploy(name, args = []) {
      const { abi, bytecode } = ARTIFACTS[name]!;
      const hash = await client.deployContract({ abi, bytecode, args } as never);
      const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
      return { address: receipt.contractAddress!, abi };
    },
    async write(contract, functionName, args) {
      const hash = await client.writeContract({ address: contract.address, abi: contract.abi, functionName, args } as never);
      await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    },
    stop,
  };
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1', () => (s.end(), resolve(true)));
    s.on('error', () => resolve(false));
  });
}

