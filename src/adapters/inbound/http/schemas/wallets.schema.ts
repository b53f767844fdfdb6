import { z } from 'zod';

/** POST /api/wallet. An unknown action is a 400 VALIDATION_ERROR (spec: 400 invalid action). */
export const walletActionBody = z.object({ action: z.enum(['create', 'get_seed', 'export_seed']) });

/** POST /api/wallet/create: the e-mail labels the wallet; it proves nothing (the wallet is the caller's). */
export const createHostedWalletBody = z.object({ email: z.string().trim().toLowerCase().email().max(320) });

/**
 * POST /api/wallet/hosted. Only the type is checked here: the key's grammar is checked by the
 * route (InvalidPrivateKeyError), so no validation message can ever quote it.
 */
export const importWalletBody = z.object({ privateKey: z.string().max(200).optional() }).default({});
