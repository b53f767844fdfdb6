import { inject, injectable } from 'tsyringe';
import { LOGGER, type Logger } from '../ports/logger.port.js';
import { REVOCATION_BUS, type Revocation, type RevocationBus } from '../ports/revocation-bus.port.js';
import { CredentialCache } from './credential-cache.js';

/**
 * What use cases call once credentials ended (sign-out, password change or reset, key deletion,
 * account deletion) or the account's e-mail or verified mark changed: this process forgets them
 * now, the others as soon as the bus tells them.
 */
@injectable()
export class CredentialRevocations {
  constructor(
    @inject(CredentialCache) private readonly cache: CredentialCache,
    @inject(REVOCATION_BUS) private readonly bus: RevocationBus,
    @inject(LOGGER) private readonly log: Logger,
  ) {}

  async sessionsEnded(ids: string[]): Promise<void> {
    await this.revoke({ kind: 'session', ids });
  }

  async keysDeleted(ids: string[]): Promise<void> {
    await this.revoke({ kind: 'api-key', ids });
  }

  /** A key's limits changed: its row is read again at its next use, here at once, elsewhere when told. */
  async keysChanged(ids: string[]): Promise<void> {
    await this.revoke({ kind: 'api-key', ids });
  }

  /**
   * A user's e-mail or its verified mark changed: the role read with their credentials (admin or
   * tester rights need a verified listed address) is read again at their next request.
   */
  async emailChanged(userId: string): Promise<void> {
    await this.revoke({ kind: 'user', ids: [userId] });
  }

  /** Applies a revocation announced by another process. */
  apply(r: Revocation): void {
    for (const id of r.ids) {
      if (r.kind === 'session') this.cache.evictSession(id);
      else if (r.kind === 'api-key') this.cache.evictKey(id);
      else this.cache.evictUser(id);
    }
  }

  private async revoke(r: Revocation): Promise<void> {
    if (r.ids.length === 0) return;
    this.apply(r);
    // The cache lifetime bounds the lag anyway; a failed announcement must not fail the use case.
    await this.bus.publish(r).catch((err) => this.log.warn({ err }, 'revocation announcement failed'));
  }
}
