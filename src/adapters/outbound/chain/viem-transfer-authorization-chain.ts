import { createPublicClient, custom, encodeFunctionData, http, keccak256, parseErc6492Signature, parseSignature, type PublicClient } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { verifyTypedData } from 'viem/actions';
import { MppPaymentRejectedError, SettlementFailedError, UpstreamUnavailableError } from '../../../application/errors.js';
import type { SettlementOutcome, SettlementPlan, SignedSettlement, TransferAuthorizationChain } from '../../../application/ports/transfer-authorization-chain.port.js';
import type { Hex, SignedTransferAuthorization, TokenDomain } from '../../../domain/gateway/transfer-authorization.js';
import { rpcRead } from './rpc-client.js';

const UPSTREAM = 'MPP RPC';

const AUTHORIZATION_FIELDS = [
  { name: 'from', type: 'address' },
  { name: 'to', type: 'address' },
  { name: 'value', type: 'uint256' },
  { name: 'validAfter', type: 'uint256' },
  { name: 'validBefore', type: 'uint256' },
  { name: 'nonce', type: 'bytes32' },
] as const;

const EIP3009_ABI = [
  { type: 'function', name: 'name', stateMutability: 'view', inputs: [], outputs: [{ type: 'string' }] },
  { type: 'function', name: 'version', stateMutability: 'view', inputs: [], outputs: [{ type: 'string' }] },
  { type: 'function', name: 'balanceOf', stateMutability: 'view', inputs: [{ name: 'owner', type: 'address' }], outputs: [{ type: 'uint256' }] },
  {
    type: 'function',
    name: 'authorizationState',
    stateMutability: 'view',
    inputs: [{ name: 'authorizer', type: 'address' }, { name: 'nonce', type: 'bytes32' }],
    outputs: [{ type: 'bool' }],
  },
  {
    type: 'function',
    name: 'transferWithAuthorization',
    stateMutability: 'nonpayable',
    inputs: [...AUTHORIZATION_FIELDS, { name: 'v', type: 'uint8' }, { name: 'r', type: 'bytes32' }, { name: 's', type: 'bytes32' }],
    outputs: [],
  },
  {
    type: 'function',
    name: 'transferWithAuthorization',
    stateMutability: 'nonpayable',
    inputs: [...AUTHORIZATION_FIELDS, { name: 'signature', type: 'bytes' }],
    outputs: [],
  },
] as const;

/** A token's revert, in USDC's words, as the reason the payer is told (402). */
const REVERT_REASONS: readonly [RegExp, string, string][] = [
  [/expired/i, 'EXPIRED', 'The authorization has expired'],
  [/not yet valid/i, 'NOT_YET_VALID', 'The authorization is not valid yet on chain'],
  [/used or canceled/i, 'AUTHORIZATION_USED', 'The authorization was already used or canceled on chain'],
  [/exceeds balance|insufficient balance|balance/i, 'PAYER_BALANCE_LOW', "The payer's balance does not cover the authorization"],
  [/invalid signature/i, 'SIGNATURE_INVALID', "The signature is not the payer's"],
];

/**
 * EIP-3009 on the MPP chain with viem (decision 0430): the token's domain (kept per token once
 * read), the checks before a settlement, and the settlement itself, signed locally by
 * MPP_SETTLER_PRIVATE_KEY's account. A settlement is USDC's `transferWithAuthorization` in the
 * (v, r, s) form for a 65-byte signature, else the `bytes signature` form (an ERC-1271 wallet's),
 * as x402's own facilitator sends it. The key is used only to sign, never logged or returned.
 */
export class ViemTransferAuthorizationChain implements TransferAuthorizationChain {
  readonly settler: Hex;
  private readonly account: PrivateKeyAccount;
  private readonly client: PublicClient;
  private readonly domains = new Map<string, Promise<TokenDomain>>();

  constructor(
    private readonly node: { url: string; timeoutMs: number; chainId: number },
    settlerKey: Hex,
    private readonly maxGas: bigint,
    /** How often a settlement's receipt is asked for while it is awaited (sooner at first: 10, 20, 40 ms...). */
    private readonly pollMs = 250,
  ) {
    this.account = privateKeyToAccount(settlerKey);
    this.settler = this.account.address.toLowerCase() as Hex;
    this.client = createPublicClient({ transport: http(node.url, { timeout: node.timeoutMs, retryCount: 0 }), cacheTime: 0, batch: { multicall: false } }) as PublicClient;
  }

  domain(token: Hex): Promise<TokenDomain> {
    const key = token.toLowerCase();
    let read = this.domains.get(key);
    if (!read) {
      read = rpcRead(UPSTREAM, async () => {
        const [name, version] = await Promise.all([
          this.client.readContract({ address: token, abi: EIP3009_ABI, functionName: 'name' }),
          this.client.readContract({ address: token, abi: EIP3009_ABI, functionName: 'version' }),
        ]);
        return { name, version };
      });
      this.domains.set(key, read);
      // a failed read is asked again next time, not kept
      read.catch(() => this.domains.delete(key));
    }
    return read;
  }

  async check(token: Hex, signed: SignedTransferAuthorization): Promise<void> {
    const a = signed.authorization;
    if (!(await this.signedByPayer(token, signed))) throw new MppPaymentRejectedError('SIGNATURE_INVALID', "The signature is not the payer's signature of this authorization for this token");
    const [used, balance] = await rpcRead(UPSTREAM, () =>
      Promise.all([
        this.client.readContract({ address: token, abi: EIP3009_ABI, functionName: 'authorizationState', args: [a.from, a.nonce] }),
        this.client.readContract({ address: token, abi: EIP3009_ABI, functionName: 'balanceOf', args: [a.from] }),
      ]),
    );
    if (used) throw new MppPaymentRejectedError('AUTHORIZATION_USED', 'The authorization was already used or canceled on chain');
    if (balance < a.value) throw new MppPaymentRejectedError('PAYER_BALANCE_LOW', "The payer's balance does not cover the authorization");
    // an undeployed wallet cannot answer the token yet: its signature was checked through the factory call it carries
    if (await this.undeployedWallet(signed)) return;
    await this.estimate(token, signed);
  }

  async deployPayer(signed: SignedTransferAuthorization, nextNonce: () => Promise<number>, timeoutMs: number): Promise<boolean> {
    const wallet = await this.undeployedWallet(signed);
    if (!wallet) return false;
    const call = { account: this.settler, to: wallet.factory, data: wallet.factoryData } as const;
    const estimate = await this.client.estimateGas(call).catch((err: unknown) => {
      if (!isExecutionRevert(err)) throw new UpstreamUnavailableError(UPSTREAM, `${UPSTREAM} did not answer (${(err as { name?: string }).name ?? 'error'})`);
      throw new MppPaymentRejectedError('WALLET_DEPLOYMENT_FAILED', "The payer's wallet could not be deployed by the factory call its signature carries");
    });
    if (estimate > this.maxGas) throw new SettlementFailedError('GAS_ABOVE_BOUND', `Deploying the payer's wallet needs ${estimate} gas, more than the ${this.maxGas} allowed (MPP_SETTLER_MAX_GAS)`);
    const gas = estimate + estimate / 4n > this.maxGas ? this.maxGas : estimate + estimate / 4n;
    const fees = await this.fundedFees(gas);
    const nonce = await nextNonce();
    const raw = await this.account.signTransaction({ type: 'eip1559', chainId: this.node.chainId, nonce, to: wallet.factory, data: wallet.factoryData, gas, ...fees });
    await this.broadcast(raw);
    const outcome = await this.outcome({ hash: keccak256(raw), raw }, 1, timeoutMs);
    if (outcome === 'unconfirmed') throw new UpstreamUnavailableError(UPSTREAM, "The payer's wallet deployment is not confirmed yet: send the same payment again");
    if (outcome === 'reverted' || (await this.undeployedWallet(signed))) {
      throw new MppPaymentRejectedError('WALLET_DEPLOYMENT_FAILED', "The payer's wallet was not deployed by the factory call its signature carries");
    }
    return true;
  }

  async plan(token: Hex, signed: SignedTransferAuthorization): Promise<SettlementPlan> {
    // the node's fees are read meanwhile: they do not depend on the estimate
    const fees = this.fees();
    fees.catch(() => undefined);
    const estimate = await this.estimate(token, signed);
    if (estimate > this.maxGas) throw new SettlementFailedError('GAS_ABOVE_BOUND', `The settlement needs ${estimate} gas, more than the ${this.maxGas} allowed (MPP_SETTLER_MAX_GAS)`);
    // a margin over the estimate, within the bound: the gas paid is what is used, the limit only caps it
    const gas = estimate + estimate / 4n > this.maxGas ? this.maxGas : estimate + estimate / 4n;
    return { gas, ...(await this.fundedFees(gas, fees)) };
  }

  /** The node's fees, once the settler's ether is known to cover `gas` at the max fee (else 502 SETTLER_UNFUNDED). */
  private async fundedFees(gas: bigint, read = this.fees()): Promise<{ maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }> {
    const { maxFeePerGas, maxPriorityFeePerGas, balance } = await read;
    if (balance < gas * maxFeePerGas) throw new SettlementFailedError('SETTLER_UNFUNDED', "The service's settler account has too little ether for the settlement's gas; nothing was moved, try again later");
    return { maxFeePerGas, maxPriorityFeePerGas };
  }

  /** The node's EIP-1559 fees and the settler's ether, read together. */
  private fees(): Promise<{ maxFeePerGas: bigint; maxPriorityFeePerGas: bigint; balance: bigint }> {
    return rpcRead(UPSTREAM, async () => {
      const [fees, balance] = await Promise.all([this.client.estimateFeesPerGas({ chain: null } as never), this.client.getBalance({ address: this.settler })]);
      return { ...(fees as { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }), balance };
    });
  }

  /** The factory call of an ERC-6492-wrapped signature whose wallet has no code yet, else null. */
  private async undeployedWallet(signed: SignedTransferAuthorization): Promise<{ factory: Hex; factoryData: Hex } | null> {
    const { address, data } = parseErc6492Signature(signed.signature);
    if (!address || !data) return null;
    const code = await rpcRead(UPSTREAM, () => this.client.getCode({ address: signed.authorization.from }));
    return code && code !== '0x' ? null : { factory: address, factoryData: data };
  }

  pendingNonce(): Promise<number> {
    return rpcRead(UPSTREAM, () => this.client.getTransactionCount({ address: this.settler, blockTag: 'pending' }));
  }

  async sign(token: Hex, signed: SignedTransferAuthorization, plan: SettlementPlan, nonce: number): Promise<SignedSettlement> {
    const raw = await this.account.signTransaction({
      type: 'eip1559',
      chainId: this.node.chainId,
      nonce,
      to: token,
      data: settlementData(signed),
      gas: plan.gas,
      maxFeePerGas: plan.maxFeePerGas,
      maxPriorityFeePerGas: plan.maxPriorityFeePerGas,
    });
    return { settler: this.settler, nonce, hash: keccak256(raw), raw };
  }

  async broadcast(raw: Hex): Promise<void> {
    // "already known", "nonce too low" (mined) or a node that failed: the outcome check tells which
    await this.client.sendRawTransaction({ serializedTransaction: raw }).catch(() => undefined);
  }

  async outcome(s: Pick<SignedSettlement, 'hash' | 'raw'>, confirmations: number, timeoutMs: number): Promise<SettlementOutcome> {
    const deadline = Date.now() + timeoutMs;
    let sentAgain = false;
    let polls = 0;
    for (;;) {
      let receipt: Awaited<ReturnType<PublicClient['getTransactionReceipt']>> | null;
      try {
        receipt = await this.client.getTransactionReceipt({ hash: s.hash }).catch((err: unknown) => (named(err, 'TransactionReceiptNotFoundError') ? null : Promise.reject(err)));
        if (receipt) {
          if (receipt.status !== 'success') return 'reverted';
          const latest = await this.client.getBlockNumber({ cacheTime: 0 });
          if (latest - receipt.blockNumber + 1n >= BigInt(confirmations)) return 'confirmed';
        } else if (!sentAgain) {
          // a broadcast that never reached the node: the recorded bytes again (same hash, same nonce)
          const known = await this.client.getTransaction({ hash: s.hash }).then(
            () => true,
            (err: unknown) => (named(err, 'TransactionNotFoundError') ? false : Promise.reject(err)),
          );
          if (!known) await this.broadcast(s.raw);
          sentAgain = true;
        }
      } catch {
        // the node failed: whether the settlement is mined is not known here; the record stays for the next look
        return 'unconfirmed';
      }
      // soon at first (a node mines a moment after it accepts), then every pollMs
      const wait = Math.min(this.pollMs, 10 * 2 ** polls++);
      if (Date.now() + wait > deadline) return 'unconfirmed';
      await new Promise((r) => setTimeout(r, wait));
    }
  }

  /** The settlement's gas by the node's estimate, which runs it: a revert is the payer's 402 with the token's reason. */
  private async estimate(token: Hex, signed: SignedTransferAuthorization): Promise<bigint> {
    try {
      return await this.client.estimateGas({ account: this.settler, to: token, data: settlementData(signed) });
    } catch (err) {
      if (!isExecutionRevert(err)) throw new UpstreamUnavailableError(UPSTREAM, `${UPSTREAM} did not answer (${(err as { name?: string }).name ?? 'error'})`);
      const text = revertText(err);
      const known = REVERT_REASONS.find(([pattern]) => pattern.test(text));
      if (known) throw new MppPaymentRejectedError(known[1], known[2]);
      throw new MppPaymentRejectedError('SETTLEMENT_WOULD_REVERT', 'The token refuses this authorization (its simulation reverted)');
    }
  }

  /**
   * viem's verifyTypedData: the ERC-6492 universal validator as a deployless eth_call (an EOA, a
   * deployed ERC-1271 wallet, an undeployed wrapped one), falling back to ECDSA recovery. Reached
   * through a transport that notes failures of the node itself, so a "no" after one is a 502, as
   * the personal-sign verifier does for sign-in.
   */
  private async signedByPayer(token: Hex, signed: SignedTransferAuthorization): Promise<boolean> {
    const domain = await this.domain(token);
    const inner = http(this.node.url, { timeout: this.node.timeoutMs, retryCount: 0 })({ retryCount: 0 });
    let nodeFailed = false;
    const transport = custom(
      {
        async request(args: { method: string; params?: unknown }) {
          try {
            return await inner.request(args as never);
          } catch (err) {
            if (!isExecutionRevert(err)) nodeFailed = true;
            throw err;
          }
        },
      },
      { retryCount: 0 },
    );
    const client = createPublicClient({ transport, cacheTime: 0, batch: { multicall: false } });
    const a = signed.authorization;
    const ok = await rpcRead(UPSTREAM, () =>
      verifyTypedData(client, {
        address: a.from,
        domain: { name: domain.name, version: domain.version, chainId: this.node.chainId, verifyingContract: token },
        types: { TransferWithAuthorization: AUTHORIZATION_FIELDS },
        primaryType: 'TransferWithAuthorization',
        message: { from: a.from, to: a.to, value: a.value, validAfter: a.validAfter, validBefore: a.validBefore, nonce: a.nonce },
        signature: signed.signature,
      }),
    );
    if (!ok && nodeFailed) throw new UpstreamUnavailableError(UPSTREAM, `${UPSTREAM} did not answer`);
    return ok;
  }
}

/** The call data of the settlement: USDC's v, r, s form for a 65-byte signature, else its bytes form. */
function settlementData(signed: SignedTransferAuthorization): Hex {
  const a = signed.authorization;
  const args = [a.from, a.to, a.value, a.validAfter, a.validBefore, a.nonce] as const;
  const { signature } = parseErc6492Signature(signed.signature);
  if (signature.length === 132) {
    const { r, s, v, yParity } = parseSignature(signature);
    return encodeFunctionData({ abi: EIP3009_ABI, functionName: 'transferWithAuthorization', args: [...args, Number(v ?? BigInt(yParity + 27)), r, s] });
  }
  return encodeFunctionData({ abi: EIP3009_ABI, functionName: 'transferWithAuthorization', args: [...args, signature] });
}

const named = (err: unknown, name: string) => (err as { name?: string }).name === name;

/** The contract answered by reverting (JSON-RPC code 3, or a node that only says so in words). */
function isExecutionRevert(err: unknown): boolean {
  for (let e = err as { code?: number; details?: string; shortMessage?: string; message?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === 3 || /revert/i.test(`${e.details ?? ''} ${e.shortMessage ?? ''}`)) return true;
  }
  return false;
}

function revertText(err: unknown): string {
  const parts: string[] = [];
  for (let e = err as { details?: string; shortMessage?: string; reason?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    parts.push(e.reason ?? '', e.details ?? '', e.shortMessage ?? '');
  }
  return parts.join(' ');
}
