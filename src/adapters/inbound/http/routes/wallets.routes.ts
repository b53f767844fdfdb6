import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Actor } from '../../../../application/auth/actor.js';
import { AuthRequiredError } from '../../../../application/auth/auth.errors.js';
import type { HostedWalletSettings } from '../../../../application/ports/hosted-wallet-settings.port.js';
import type { WalletBalances } from '../../../../application/ports/wallet-balances.port.js';
import type { CreateWallet } from '../../../../application/wallets/create-wallet.use-case.js';
import type { ExportSeed } from '../../../../application/wallets/export-seed.use-case.js';
import type { FindWallet } from '../../../../application/wallets/find-wallet.use-case.js';
import type { GetSeedMetadata } from '../../../../application/wallets/get-seed-metadata.use-case.js';
import type { GetWallet } from '../../../../application/wallets/get-wallet.use-case.js';
import { HostedWalletNotConfiguredError, InvalidPrivateKeyError, isPrivateKey } from '../../../../domain/wallets/wallet.js';
import { seedMetadata, walletRecord } from '../presenters/wallet-presenters.js';
import { createHostedWalletBody, importWalletBody, walletActionBody } from '../schemas/wallets.schema.js';
import type { RouteEdge } from './route-context.js';
import { hostedWalletCreatedResponse, hostedWalletImportedResponse, hostedWalletStatusResponse, walletActionResponse, walletAddressResponse, walletResponse } from '../schemas/wallets.responses.js';

const HOSTED_FEATURES = ['create_wallet', 'import_key', 'balance', 'erc20_transfer'];
const SUPPORTED_CHAINS = ['base', 'base-sepolia'];
const SETUP = 'Set HOSTED_WALLET_API_KEY and HOSTED_WALLET_PROJECT_ID to enable hosted wallets';

export interface WalletRouteDeps {
  hostedWalletSettings: HostedWalletSettings;
  walletBalances: WalletBalances;
  getWallet: GetWallet;
  createWallet: CreateWallet;
  getSeedMetadata: GetSeedMetadata;
  exportSeed: ExportSeed;
  findWallet: FindWallet;
}

/**
 * Spec "Wallets". The rows the spec marks "none" resolve the caller when credentials are sent
 * (`auth: 'optional'`): what they create or show is always the authenticated caller's, and
 * without a caller they create nothing (401) or say that sign-in is needed (docs/decisions/0085-wallet-network-and-optional-auth.md).
 */
export const walletRoutes: FastifyPluginAsyncZod<RouteEdge & WalletRouteDeps> = async (app, { hostedWalletSettings: hosted, walletBalances, getWallet, createWallet, getSeedMetadata, exportSeed, findWallet }) => {
  const network = walletBalances.network;
  const caller = (actor: Actor | null): Actor => {
    if (!actor) throw new AuthRequiredError();
    return actor;
  };

  app.get('/api/wallet', { schema: { response: { 200: walletResponse } }, config: { auth: hosted.configured ? 'optional' : 'required' } }, async (req) => {
    if (!hosted.configured) return walletRecord(await getWallet.execute(req.actor!));
    return {
      agenticWallet: { status: 'configured', projectId: hosted.projectId, features: HOSTED_FEATURES },
      instructions: 'Signed in, POST /api/wallet/create with {"email"} creates your hosted wallet; GET /api/wallet/address shows it.',
      ...(req.actor ? { wallet: walletRecord(await getWallet.execute(req.actor)) } : {}),
    };
  });

  app.post('/api/wallet', { schema: { body: walletActionBody, response: { 200: walletActionResponse } }, config: { auth: 'required' } }, async (req) => {
    const actor = req.actor!;
    switch (req.body.action) {
      case 'create': {
        const wallet = await createWallet.execute(actor);
        return { address: wallet.address, network, message: 'Wallet created. Its private key is held encrypted by the service and is never shown.' };
      }
      case 'get_seed':
        return seedMetadata(await getSeedMetadata.execute(actor), network);
      case 'export_seed':
        return exportSeed.execute();
    }
  });

  app.get('/api/wallet/address', { schema: { response: { 200: walletAddressResponse } }, config: { auth: 'optional' } }, async (req) => {
    if (req.actor) {
      const wallet = await findWallet.execute(req.actor);
      return { authenticated: true, address: wallet?.address ?? null };
    }
    if (!hosted.configured) return { authenticated: false, needsAuth: true, error: 'Hosted wallet is not configured', setup: SETUP };
    return { authenticated: false, needsAuth: true, message: 'Sign in to see your wallet address' };
  });

  app.post('/api/wallet/create', { schema: { body: createHostedWalletBody, response: { 200: hostedWalletCreatedResponse } }, config: { auth: 'optional' } }, async (req) => {
    if (!hosted.configured) throw new HostedWalletNotConfiguredError(SETUP);
    const actor = caller(req.actor);
    const wallet = await createWallet.execute(actor, { label: req.body.email });
    return { success: true, walletAddress: wallet.address, walletId: wallet.id, networks: [network] };
  });

  app.get('/api/wallet/hosted', { schema: { response: { 200: hostedWalletStatusResponse } }, config: { auth: 'none' } }, async () => ({ status: 'ok', type: 'evm_wallet', supportedChains: SUPPORTED_CHAINS }));

  app.post('/api/wallet/hosted', { schema: { body: importWalletBody, response: { 200: hostedWalletImportedResponse } }, config: { auth: 'optional' } }, async (req) => {
    const { privateKey } = req.body;
    if (privateKey !== undefined && !isPrivateKey(privateKey)) throw new InvalidPrivateKeyError();
    const actor = caller(req.actor);
    const wallet = await createWallet.execute(actor, { privateKey });
    return { success: true, address: wallet.address, network };
  });
};
