import { formatEther, formatUnits } from 'viem';
import { UpstreamUnavailableError } from '../../../application/errors.js';
import type { WalletBalances } from '../../../application/ports/wallet-balances.port.js';
import { WalletNotConfiguredError } from '../../../domain/wallets/wallet.js';
import { ERC20_ABI, nodeFailure, walletPublicClient, type WalletChain } from './wallet-chain.js';

/** Native and token balances read from the configured node. */
export class ViemWalletBalances implements WalletBalances {
  readonly network: string;
  readonly token: WalletBalances['token'];

  constructor(private readonly chain: WalletChain) {
    this.network = chain.network;
    this.token = chain.token;
  }

  async read(address: `0x${string}`): Promise<{ native: string; token: string }> {
    const { rpcUrl } = this.chain;
    if (!rpcUrl) throw new WalletNotConfiguredError('The wallet RPC node (BASE_RPC_URL)');
    const client = walletPublicClient({ ...this.chain, rpcUrl });
    try {
      const [native, token] = await Promise.all([
        client.getBalance({ address }),
        client.readContract({ address: this.chain.token.address, abi: ERC20_ABI, functionName: 'balanceOf', args: [address] }),
      ]);
      return { native: formatEther(native), token: formatUnits(token, this.chain.token.decimals) };
    } catch (err) {
      throw new UpstreamUnavailableError('Wallet RPC', 'The wallet RPC node did not answer', new Error(nodeFailure(err)));
    }
  }
}
