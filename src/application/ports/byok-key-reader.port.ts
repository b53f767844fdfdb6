import type { InjectionToken } from 'tsyringe';
import type { AiProviderName } from '../../domain/ai/ai-model.js';
import type { UserId } from '../../domain/shared/ids.js';

/** A user's own provider keys in clear, by provider. Empty when BYOK is off. Never logged. */
export type ByokKeys = Partial<Record<AiProviderName, string>>;

/**
 * What the AI layer needs from BYOK storage (billing owns the storage): the payer's decrypted
 * keys at the moment of a call. Read-only, safe to call concurrently; one short transaction.
 */
export interface ByokKeyReader {
  keysFor(userId: UserId): Promise<ByokKeys>;
}
export const BYOK_KEY_READER: InjectionToken<ByokKeyReader> = Symbol('ByokKeyReader');
