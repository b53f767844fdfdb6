import { createWalletClient, formatEther, formatUnits, http } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { NotFoundError } from '../../../application/errors.js';
import type { SecretBox } from '../../../application/ports/secret-box.port.js';
import type { UserWork } from '../../../application/ports/unit-of-work.port.js';
import type { TokenTransfer, WalletCustody, WalletSigner } from '../../../application/ports/wallet-custody.port.js';
import { InsufficientFundsError, WalletExistsError, WalletNotConfiguredError, type Wallet } from '../../../domain/wallets/wallet.js';
import { WalletTransferFailedError } from './wallet-transfer-failed.error.js';
import { ERC20_ABI, nodeFailure, walletPublicClient, type WalletChain } from './wallet-chain.js';
import type { UserId } from '../../../domain/shared/ids.js';

/** Authenticated with every sealed key: a ciphertext copied to another user's row does not open. */
const keyContext = (userId: string, address: string) => `wallet:${userId}:${address.toLowerCase()}`;

/**
 * The default hosted-wallet provider: keys generated (viem) or imported, sealed with the secret
 * box in the user's `wallets` row, and used only in this process to sign. The key is opened for
 * the one signing call and never returned, logged or put in an error.
 */
export class LocalWalletCustody implements WalletCustody, WalletSigner {
  readonly provider = 'local';
  readonly configured: boolean;
  /** One send at a time per address in this process, so two payments never take the same nonce. */
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    private readonly uow: UserWork<'wallets'>,
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

  async transferToken(userId: UserId, transfers: readonly TokenTransfer[], signal?: AbortSignal) {
    const { rpcUrl } = this.chain;
    if (!rpcUrl) throw new WalletNotConfiguredError('The wallet RPC node (BASE_RPC_URL)');
    const held = await this.uow.asUser(userId, (s) => s.wallets.sealedKey());
    if (!held) throw new NotFoundError('Wallet');
    return this.serialized(held.address, async () => {
      signal?.throwIfAborted();
      const account = privateKeyToAccount(this.box.open(held.sealed, keyContext(userId, held.address)) as `0x${string}`);
      const reader = walletPublicClient({ ...this.chain, rpcUrl });
      const writer = createWalletClient({ account, chain: this.chain.chain, transport: http(rpcUrl, { timeout: this.chain.timeoutMs, retryCount: 0 }) });
      const token = this.chain.token;
      const total = transfers.reduce((a, t) => a + t.amount, 0n);
      const [tokenBalance, gasBalance] = await this.node(() =>
        Promise.all([reader.readContract({ address: token.address, abi: ERC20_ABI, functionName: 'balanceOf', args: [account.address] }), reader.getBalance({ address: account.address })]),
      );
      if (tokenBalance < total) {
        throw new InsufficientFundsError({ asset: token.symbol, needed: formatUnits(total, token.decimals), available: formatUnits(tokenBalance, token.decimals) });
      }
      if (gasBalance === 0n) throw new InsufficientFundsError({ asset: 'ETH (gas)', needed: 'more than 0', available: formatEther(gasBalance) });
      const sent: { to: string; amount: bigint; transactionHash: string }[] = [];
      for (const t of transfers) {
        try {
          const hash = await writer.writeContract({ address: token.address, abi: ERC20_ABI, functionName: 'transfer', args: [t.to, t.amount] });
          const receipt = await reader.waitForTransactionReceipt({ hash, timeout: this.chain.timeoutMs });
          if (receipt.status !== 'success') throw Object.assign(new Error('reverted'), { name: 'TransactionReverted', shortMessage: `transaction ${hash} reverted` });
          sent.push({ to: t.to, amount: t.amount, transactionHash: hash });
        } catch (err) {
          throw new WalletTransferFailedError(sent, nodeFailure(err));
        }
      }
      return { from: account.address.toLowerCase(), transactions: sent };
    });
  }

  private async node<T>(read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (err) {
      throw new WalletTransferFailedError([], nodeFailure(err));
    }
  }

  private serialized<T>(address: string, work: () => Promise<T>): Promise<T> {
    const before = this.queues.get(address) ?? Promise.resolve();
    const run = before.then(work, work);
    const tail = run.catch(() => {});
    this.queues.set(address, tail);
    void tail.then(() => {
      if (this.queues.get(address) === tail) this.queues.delete(address);
    });
    return run;
  }
}
