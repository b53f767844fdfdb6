import { inject, injectable } from 'tsyringe';
import type { ByokProvider } from '../../domain/billing/byok.js';
import type { UserId } from '../../domain/shared/ids.js';
import { LOGGER, type Logger } from '../ports/logger.port.js';
import { SECRET_BOX, type SecretBox } from '../ports/secret-box.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { BillingUserScope } from '../ports/scopes/billing-scope.port.js';
import { SecretUnreadableError } from './billing.errors.js';
import { byokContext } from './byok-context.js';

/**
 * A user's BYOK keys in clear, by provider, for the AI layer at the moment of a call (one short
 * user transaction, then decryption outside it). Empty when BYOK is off. A key that no configured
 * encryption key opens (its key was retired) is left out and logged by provider only, so the call
 * falls back to metered use rather than failing; the user can enter the key again.
 */
@injectable()
export class ReadByokKeys {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<BillingUserScope, 'byokKeys'>,
    @inject(SECRET_BOX) private readonly box: SecretBox,
    @inject(LOGGER) private readonly log: Logger,
  ) {}

  async keysFor(userId: UserId): Promise<Partial<Record<ByokProvider, string>>> {
    const stored = await this.uow.asUser(userId, (s) => s.byokKeys.list());
    const keys: Partial<Record<ByokProvider, string>> = {};
    for (const { provider, sealed } of stored) {
      try {
        keys[provider] = this.box.open(sealed, byokContext(userId, provider));
      } catch (err) {
        if (!(err instanceof SecretUnreadableError)) throw err;
        this.log.warn({ userId, provider, keyId: sealed.keyId }, 'a stored BYOK key cannot be decrypted; ignored');
      }
    }
    return keys;
  }
}
