import { inject, injectable } from 'tsyringe';
import { JWT_TTL_SECONDS } from '../../domain/accounts/account-rules.js';
import { TOKEN_SIGNER, type TokenSigner } from '../ports/token-signer.port.js';
import { sidOf, type Actor } from './actor.js';

/** A 7-day JWT tied to the session or key the caller used: it dies with that origin. */
@injectable()
export class IssueToken {
  constructor(@inject(TOKEN_SIGNER) private readonly signer: TokenSigner) {}

  async execute(actor: Actor): Promise<{ token: string; tokenType: 'Bearer'; expiresIn: number }> {
    const token = await this.signer.sign({ userId: actor.userId, email: actor.email, role: actor.role, sid: sidOf(actor.credential) }, JWT_TTL_SECONDS);
    return { token, tokenType: 'Bearer', expiresIn: JWT_TTL_SECONDS };
  }
}
