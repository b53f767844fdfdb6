import { inject, injectable } from 'tsyringe';
import { normalizeEmail, SESSION_TTL_MS } from '../../domain/accounts/account-rules.js';
import { InvalidCredentialsError } from '../../domain/accounts/accounts.errors.js';
import type { User } from '../../domain/accounts/user.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { PASSWORD_HASHER, type PasswordHasher } from '../ports/password-hasher.port.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';
import type { AccountsSystemScope } from '../ports/scopes/accounts-scope.port.js';
import { ID_GENERATOR, type IdGenerator } from '../ports/id-generator.port.js';
import { newSecretToken, sha256 } from '../shared/secret-tokens.js';

export interface SignInResult {
  user: User;
  /** The opaque session token for the cookie; only its hash is stored. */
  sessionToken: string;
  sessionId: string;
  expiresAt: Date;
}

/** Credentials sign-in. An unknown e-mail costs the same argon2 verify as a wrong password. */
@injectable()
export class SignIn {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemWork<AccountsSystemScope, 'sessions' | 'users'>,
    @inject(PASSWORD_HASHER) private readonly hasher: PasswordHasher,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute(input: { email: string; password: string }): Promise<SignInResult> {
    const found = await this.uow.asSystem((s) => s.users.findByEmail(normalizeEmail(input.email)));
    const hash = found?.passwordHash ?? (await this.hasher.decoy);
    const ok = await this.hasher.verify(hash, input.password);
    if (!found || !found.passwordHash || !ok) throw new InvalidCredentialsError();
    const { passwordHash: _, ...user } = found;
    const token = newSecretToken(this.ids);
    const expiresAt = new Date(this.clock.now().getTime() + SESSION_TTL_MS);
    const session = await this.uow.asSystem((s) => s.sessions.create(user.id, sha256(token), expiresAt));
    return { user, sessionToken: token, sessionId: session.id, expiresAt };
  }
}
