import { inject, injectable } from 'tsyringe';
import { WALLET_NONCE_TTL_MS } from '../../domain/identity/siwe-rules.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';
import type { AccountsSystemScope } from '../ports/scopes/accounts-scope.port.js';
import { ID_GENERATOR, type IdGenerator } from '../ports/id-generator.port.js';
import { sha256 } from '../shared/secret-tokens.js';

/**
 * GET /api/auth/nonce: 128 random bits as 32 hex characters (EIP-4361 wants alphanumerics only),
 * stored as their sha256, single use, 10 minutes.
 */
@injectable()
export class IssueWalletNonce {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemWork<AccountsSystemScope, 'walletNonces'>,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute(): Promise<{ nonce: string }> {
    const nonce = this.ids.bytes(16).toString('hex');
    const now = this.clock.now();
    await this.uow.asSystem((s) => s.walletNonces.issue(sha256(nonce), new Date(now.getTime() + WALLET_NONCE_TTL_MS), now));
    return { nonce };
  }
}
