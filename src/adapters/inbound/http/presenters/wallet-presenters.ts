import type { WalletView } from '../../../../application/wallets/get-wallet.use-case.js';
import type { Wallet } from '../../../../domain/wallets/wallet.js';

/**
 * Spec "Wallet (user wallet)": address, balance, network, hasWallet, createdAt (message only without
 * a wallet). `balance` is the token's (USDC by default) as decimal text; `nativeBalance` the ETH
 * that pays gas. When the node could not be read both are null and `balanceError` says why.
 */
export function walletRecord(view: WalletView) {
  const { wallet, network, token, balance } = view;
  if (!wallet) {
    return { address: null, balance: '0', network, hasWallet: false, createdAt: null, message: 'No wallet yet: POST /api/wallet with {"action": "create"} creates one' };
  }
  const read = 'error' in balance ? null : balance;
  return {
    address: wallet.address,
    balance: read ? read.token : null,
    network,
    hasWallet: true,
    createdAt: wallet.createdAt.toISOString(),
    token: { symbol: token.symbol, address: token.address, decimals: token.decimals },
    nativeBalance: read ? read.native : null,
    ...('error' in balance ? { balanceError: balance.error } : {}),
  };
}

/** `get_seed`: metadata only; the key never leaves custody. */
export const seedMetadata = (wallet: Wallet, network: string) => ({
  address: wallet.address,
  network,
  createdAt: wallet.createdAt.toISOString(),
  warning: 'The private key is held encrypted by the service and is never shown or exported. Anyone holding a private key controls the wallet.',
});
