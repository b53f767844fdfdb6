import type { DependencyContainer } from 'tsyringe';
import { walletSettings } from '../adapters/outbound/wallets/wallet-network.js';
import { SECRET_BOX } from '../application/ports/secret-box.port.js';
import { USER_WALLETS } from '../application/ports/user-wallets.port.js';
import { UNIT_OF_WORK } from '../application/ports/unit-of-work.port.js';
import { HOSTED_WALLET_SETTINGS } from '../application/ports/hosted-wallet-settings.port.js';
import { WALLET_BALANCES, type WalletBalances } from '../application/ports/wallet-balances.port.js';
import { WALLET_CUSTODY, type WalletCustody } from '../application/ports/wallet-custody.port.js';
import { WALLET_SIGNER, type WalletSigner } from '../application/ports/wallet-signer.port.js';
import { SkillWallets } from '../application/wallets/skill-wallets.js';
import { CreateWallet } from '../application/wallets/create-wallet.use-case.js';
import { ExportSeed } from '../application/wallets/export-seed.use-case.js';
import { FindWallet } from '../application/wallets/find-wallet.use-case.js';
import { GetSeedMetadata } from '../application/wallets/get-seed-metadata.use-case.js';
import { GetWallet } from '../application/wallets/get-wallet.use-case.js';
import type { Config } from './config.js';
import { lazyAdapter } from './lazy-adapter.js';
import { SendPayouts } from '../application/wallets/send-payouts.use-case.js';
import { SweepUnfinishedPayouts } from '../application/wallets/sweep-unfinished-payouts.use-case.js';

/**
 * Wallets: the local custody adapter (keys sealed in the database) is the hosted-wallet provider
 * by default; a remote provider's adapter replaces the two custody lines (docs/decisions/0086-hosted-wallet-provider.md).
 * Needs UNIT_OF_WORK and SECRET_BOX (registerBilling) first, and comes before registerSkills
 * (usdc-payments and instant-split take the wallet ports). Sends hold no database connection across
 * node calls: the database claims each payout and hands out each wallet's nonces (docs/decisions/0416).
 * The adapters (viem) are loaded by the first wallet call (docs/decisions/0470): the ports' data
 * (provider, network, token, whether a node is configured) is known without them.
 */
export function registerWallets(c: DependencyContainer, config: Config): void {
  const settings = {
    network: config.WALLET_NETWORK,
    rpcUrl: config.BASE_RPC_URL,
    timeoutMs: config.WALLET_RPC_TIMEOUT_MS,
    token: { address: config.WALLET_TOKEN_ADDRESS, decimals: config.WALLET_TOKEN_DECIMALS, symbol: config.WALLET_TOKEN_SYMBOL },
  };
  const { network, rpcUrl, token } = walletSettings(settings);
  const chain = async () => (await import('../adapters/outbound/wallets/wallet-chain.js')).walletChain(settings);
  const [uow, box] = [c.resolve(UNIT_OF_WORK), c.resolve(SECRET_BOX)];
  // one adapter for both ports, as LocalWalletCustody is: its per-wallet turns and bounds are shared
  const custody = lazyAdapter<WalletCustody & WalletSigner, 'create' | 'checkFunds' | 'submit' | 'settle'>(
    async () => new (await import('../adapters/outbound/wallets/local-wallet-custody.js')).LocalWalletCustody(uow, box, await chain()),
    ['create', 'checkFunds', 'submit', 'settle'],
    // as LocalWalletCustody gives them
    { provider: 'local', configured: rpcUrl !== null },
  );
  c.register(WALLET_CUSTODY, { useValue: custody });
  c.register(WALLET_SIGNER, { useValue: custody });
  const balances = lazyAdapter<WalletBalances, 'read'>(
    async () => new (await import('../adapters/outbound/wallets/viem-wallet-balances.js')).ViemWalletBalances(await chain()),
    ['read'],
    { network, token },
  );
  c.register(WALLET_BALANCES, { useValue: balances });
  const configured = Boolean(config.HOSTED_WALLET_API_KEY && config.HOSTED_WALLET_PROJECT_ID);
  c.register(HOSTED_WALLET_SETTINGS, { useValue: { configured, projectId: configured ? config.HOSTED_WALLET_PROJECT_ID! : null } });
  c.register(USER_WALLETS, { useClass: SkillWallets });
  for (const useCase of [GetWallet, FindWallet, GetSeedMetadata, ExportSeed, CreateWallet, SendPayouts, SweepUnfinishedPayouts]) c.registerSingleton(useCase as never);
}
