import { createWalletClient, encodeFunctionData, formatEther, formatUnits, http, keccak256, type PublicClient } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { NotFoundError, UpstreamUnavailableError } from '../../../application/errors.js';
import type { SealedSecret, SecretBox } from '../../../application/ports/secret-box.port.js';
import type { UserWork } from '../../../application/ports/unit-of-work.port.js';
import type { WalletsUserScope } from '../../../application/ports/scopes/wallets-scope.port.js';
import type { SubmitSteps, TokenTransfer, TransferOutcome, WalletSigner } from '../../../application/ports/wallet-signer.port.js';
import type { WalletCustody } from '../../../application/ports/wallet-custody.port.js';
import type { SignedTransfer } from '../../../domain/wallets/payout.js';
import { InsufficientFundsError, WalletExistsError, WalletNotConfiguredError, type Wallet } from '../../../domain/wallets/wallet.js';
import { WalletSendBounds } from './wallet-send-bounds.js';
import { ERC20_ABI, nodeFailure, walletPublicClient, type WalletChain } from './wallet-chain.js';
import type { UserId } from '../../../domain/shared/ids.js';

/** Authenticated with every sealed key: a ciphertext copied to another user's row does not open. */
const keyContext = (userId: string, address: string) => `wallet:${userId}:${address.toLowerCase()}`;

/** Sends from one wallet in other processes that take the next nonce first, tolerated before this one gives up (a 502; the job retries). */
const NONCE_ATTEMPTS = 10;

const isNamed = (err: unknown, ...names: string[]) => names.includes((err as { name?: string }).name ?? '');

/**
 * The default hosted-wallet provider: keys generated (viem) or imported, sealed with the secret
 * box in the user's `wallets` row, and used only in this process to sign. The key is opened for
 * the one signing call and never returned, logged or put in an error.
 */
export class LocalWalletCustody implements WalletCustody, WalletSigner {
  readonly provider = 'local';
  readonly configured: boolean;
  private readonly turns = new Map<string, Promise<unknown>>();
  /** This process's node work for wallets (docs/decisions/0416). */
  private readonly bounds = new WalletSendBounds({ total: 16, perWallet: 4 });

  constructor(
    private readonly uow: UserWork<WalletsUserScope, 'wallets'>,
    private readonly box: SecretBox,
    private readonly chain: WalletChain,
  ) {
    this.configured = chain.rpcUrl !== null;
  }

  async create(userId: UserId, opts: { privateKey?: `0x${string}` | undefined; label?: string | undefined }): Promise<Wallet> {
    const key = opts.privateKey ?? generatePrivateKey();
    const address = privateKeyToAccount(key).address.toLowerCase();
    const wallet = await this.uow.asUser(userId, async (s) => {
      if (await s.wallets.get()) return null;
      return s.wallets.insert({
        userId,
        address,
        provider: this.provider,
        providerWalletId: null,
        source: opts.privateKey ? 'imported' : 'generated',
        label: opts.label ?? null,
        sealedKey: this.box.seal(key, keyContext(userId, address)),
      });
    });
    // null: this user already has one, or (an imported key) another account holds that address
    if (!wallet) throw new WalletExistsError();
    return wallet;
  }

  async checkFunds(userId: UserId, total: bigint, signal?: AbortSignal): Promise<{ from: string }> {
    const reader = this.reader();
    const held = await this.held(userId);
    signal?.throwIfAborted();
    await this.requireFunds(reader, held.address as `0x${string}`, total);
    return { from: held.address };
  }

  async submit(userId: UserId, transfer: TokenTransfer, steps: SubmitSteps, signal?: AbortSignal): Promise<SignedTransfer | null> {
    const reader = this.reader();
    const held = await this.held(userId);
    const from = held.address.toLowerCase() as `0x${string}`;
    return this.bounds.send(from, async () => {
      // an unfunded wallet is refused before it claims anything
      await this.requireFunds(reader, from, transfer.amount);
      signal?.throwIfAborted();
      // this process's sends of one wallet take their nonces in turn (no connection held while queued);
      // other processes' are ordered by the database, a lost race signing again at the next nonce
      return this.inTurn(from, () => this.claimSignRecordBroadcast(reader, userId, held, from, transfer, steps));
    });
  }

  private async claimSignRecordBroadcast(
    reader: PublicClient,
    userId: UserId,
    held: { sealed: SealedSecret; address: string },
    from: `0x${string}`,
    transfer: TokenTransfer,
    steps: SubmitSteps,
  ): Promise<SignedTransfer | null> {
    if (!(await steps.claim())) return null;
    const account = privateKeyToAccount(this.box.open(held.sealed, keyContext(userId, held.address)) as `0x${string}`);
    for (let attempt = 0; attempt < NONCE_ATTEMPTS; attempt++) {
      const recorded = await steps.nextNonce(from);
      const signed = await this.node(() => this.sign(reader, account, transfer, recorded));
      // recorded (committed) before the broadcast: a crash from here on leaves the bytes to check and
      // rebroadcast; a transfer not recorded is never broadcast
      const outcome = await steps.record(signed);
      if (outcome === 'lost') return null;
      if (outcome === 'nonce-taken') continue;
      // earlier transfers the node may have lost first, or this one would wait behind their nonces
      for (const raw of await steps.unminedBefore(from, signed.nonce)) await reader.sendRawTransaction({ serializedTransaction: raw }).catch(() => undefined);
      // a failed broadcast may still have reached the node: settle() tells, never a second signature
      await reader.sendRawTransaction({ serializedTransaction: signed.raw }).catch(() => undefined);
      return signed;
    }
    throw new UpstreamUnavailableError('Wallet RPC', 'Other sends from this wallet kept taking the next nonce; try again');
  }

  /** Runs `work` after this process's earlier sends from `address` have settled. */
  private inTurn<T>(address: string, work: () => Promise<T>): Promise<T> {
    const next = (this.turns.get(address) ?? Promise.resolve()).then(work, work);
    const tail = next.catch(() => {});
    this.turns.set(address, tail);
    void tail.then(() => {
      if (this.turns.get(address) === tail) this.turns.delete(address);
    });
    return next;
  }

  async settle(signed: SignedTransfer, signal?: AbortSignal): Promise<TransferOutcome> {
    const reader = this.reader();
    return this.bounds.check(() => this.node(async () => {
      const mined = await this.receipt(reader, signed.hash);
      if (mined) return mined;
      // the nonce first, then the receipt again: a transfer mined in between is still seen
      const used = await reader.getTransactionCount({ address: signed.from as `0x${string}`, blockTag: 'latest' });
      const minedMeanwhile = await this.receipt(reader, signed.hash);
      if (minedMeanwhile) return minedMeanwhile;
      if (used > signed.nonce) return 'stuck';
      const known = await reader.getTransaction({ hash: signed.hash }).then(() => true, (err: unknown) => (isNamed(err, 'TransactionNotFoundError') ? false : Promise.reject(err)));
      if (!known) await reader.sendRawTransaction({ serializedTransaction: signed.raw }).catch(() => undefined);
      signal?.throwIfAborted();
      try {
        const receipt = await reader.waitForTransactionReceipt({ hash: signed.hash, timeout: this.chain.timeoutMs });
        return receipt.status === 'success' ? 'confirmed' : 'reverted';
      } catch (err) {
        if (isNamed(err, 'WaitForTransactionReceiptTimeoutError')) return 'unconfirmed';
        throw err;
      }
    }));
  }

  /** At the wallet's next nonce: the node's pending count, or past it what the recorded payouts hold. */
  private async sign(reader: PublicClient, account: PrivateKeyAccount, t: TokenTransfer, recordedNext: number): Promise<SignedTransfer> {
    const { rpcUrl } = this.chain;
    const writer = createWalletClient({ account, chain: this.chain.chain, transport: http(rpcUrl!, { timeout: this.chain.timeoutMs, retryCount: 0 }) });
    // the node's count covers transactions made elsewhere with the key; the database's, transfers it has not seen yet
    const nonce = Math.max(await reader.getTransactionCount({ address: account.address, blockTag: 'pending' }), recordedNext);
    const data = encodeFunctionData({ abi: ERC20_ABI, functionName: 'transfer', args: [t.to, t.amount] });
    const request = await writer.prepareTransactionRequest({ account, chain: this.chain.chain, to: this.chain.token.address, data, nonce });
    const raw = await account.signTransaction(request as never);
    return { from: account.address.toLowerCase(), hash: keccak256(raw), nonce, raw };
  }

  private async receipt(reader: PublicClient, hash: `0x${string}`): Promise<'confirmed' | 'reverted' | null> {
    try {
      const r = await reader.getTransactionReceipt({ hash });
      return r.status === 'success' ? 'confirmed' : 'reverted';
    } catch (err) {
      if (isNamed(err, 'TransactionReceiptNotFoundError')) return null;
      throw err;
    }
  }

  private async requireFunds(reader: PublicClient, address: `0x${string}`, total: bigint): Promise<void> {
    const token = this.chain.token;
    const [tokenBalance, gasBalance] = await this.node(() =>
      Promise.all([reader.readContract({ address: token.address, abi: ERC20_ABI, functionName: 'balanceOf', args: [address] }), reader.getBalance({ address })]),
    );
    if (tokenBalance < total) {
      throw new InsufficientFundsError({ asset: token.symbol, needed: formatUnits(total, token.decimals), available: formatUnits(tokenBalance, token.decimals) });
    }
    if (gasBalance === 0n) throw new InsufficientFundsError({ asset: 'ETH (gas)', needed: 'more than 0', available: formatEther(gasBalance) });
  }

  private reader(): PublicClient {
    const { rpcUrl } = this.chain;
    if (!rpcUrl) throw new WalletNotConfiguredError('The wallet RPC node (BASE_RPC_URL)');
    return walletPublicClient({ ...this.chain, rpcUrl });
  }

  private async held(userId: UserId) {
    const held = await this.uow.asUser(userId, (s) => s.wallets.sealedKey());
    if (!held) throw new NotFoundError('Wallet');
    return held;
  }

  private async node<T>(read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (err) {
      if (err instanceof InsufficientFundsError) throw err;
      throw new UpstreamUnavailableError('Wallet RPC', `The wallet RPC node failed (${nodeFailure(err)})`);
    }
  }
}
