import type { ByokProvider } from '../../domain/billing/byok.js';
import type { UserId } from '../../domain/shared/ids.js';

/** What a BYOK ciphertext is bound to: a key sealed for one user and provider opens for no other. */
export const byokContext = (userId: UserId, provider: ByokProvider): string => `byok:v1:${userId}:${provider}`;
