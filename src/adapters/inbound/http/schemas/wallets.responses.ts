import { z } from 'zod';

/** Response bodies of /api/wallet (spec "Wallets"); several answer per configuration or action. */
export const walletResponse = z
  .looseObject({})
  .describe('hosted configured: `{agenticWallet, instructions}`; else the wallet record (address null and hasWallet false without one)');
export const walletActionResponse = z.looseObject({ address: z.string().optional(), network: z.string().optional() }).describe('create: address, network, message; get_seed: address, network, createdAt, warning');
export const walletAddressResponse = z.looseObject({ authenticated: z.boolean() }).describe('`{authenticated: true, address}` or `{authenticated: false, needsAuth: true, message}` (or `error` and `setup`)');
export const hostedWalletCreatedResponse = z.object({ success: z.boolean(), walletAddress: z.string(), walletId: z.string(), networks: z.array(z.string()) });
export const hostedWalletStatusResponse = z.object({ status: z.string(), type: z.string(), supportedChains: z.array(z.string()).readonly() });
export const hostedWalletImportedResponse = z.object({ success: z.boolean(), address: z.string(), network: z.string() });
