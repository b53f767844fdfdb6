import type { DependencyContainer } from 'tsyringe';
import { Argon2PasswordHasher } from '../adapters/outbound/crypto/argon2-password-hasher.js';
import { BcryptSecretHasher } from '../adapters/outbound/crypto/bcrypt-secret-hasher.js';
import { JoseTokenSigner } from '../adapters/outbound/crypto/jose-token-signer.js';
import { PgRevocationBus } from '../adapters/outbound/persistence/pg-revocation-bus.js';
import { PgCredentialLookup } from '../adapters/outbound/persistence/pg-credential-lookup.js';
import { MAIL_DELIVERY_SETTINGS } from '../application/ports/mail-delivery-settings.port.js';
import { AccountMail } from '../application/accounts/account-mail.js';
import { ChangePassword } from '../application/accounts/change-password.use-case.js';
import { DeleteAccount } from '../application/accounts/delete-account.use-case.js';
import { GetProfile } from '../application/accounts/get-profile.use-case.js';
import { RegisterUser } from '../application/accounts/register-user.use-case.js';
import { RequestPasswordReset } from '../application/accounts/request-password-reset.use-case.js';
import { ResetPassword } from '../application/accounts/reset-password.use-case.js';
import { SignIn } from '../application/accounts/sign-in.use-case.js';
import { SignOut } from '../application/accounts/sign-out.use-case.js';
import { UpdateProfile } from '../application/accounts/update-profile.use-case.js';
import { VerifyEmail } from '../application/accounts/verify-email.use-case.js';
import { CreateApiKey } from '../application/api-keys/create-api-key.use-case.js';
import { DeleteApiKey } from '../application/api-keys/delete-api-key.use-case.js';
import { GetApiKey } from '../application/api-keys/get-api-key.use-case.js';
import { ListApiKeys } from '../application/api-keys/list-api-keys.use-case.js';
import { UpdateApiKey } from '../application/api-keys/update-api-key.use-case.js';
import { AUTH_SETTINGS } from '../application/ports/auth-settings.port.js';
import { Authenticator } from '../application/auth/authenticator.js';
import { CredentialCache } from '../application/auth/credential-cache.js';
import { CredentialRevocations } from '../application/auth/credential-revocations.js';
import { IssueToken } from '../application/auth/issue-token.use-case.js';
import { REVOCATION_BUS } from '../application/ports/revocation-bus.port.js';
import { CREDENTIAL_LOOKUP } from '../application/ports/credential-lookup.port.js';
import { PASSWORD_HASHER } from '../application/ports/password-hasher.port.js';
import { SECRET_HASHER } from '../application/ports/secret-hasher.port.js';
import { TOKEN_SIGNER } from '../application/ports/token-signer.port.js';
import type { Config } from './config.js';
import type { Infrastructure } from './infrastructure.js';

/** Accounts, sessions, tokens and API keys. */
export function registerAccounts(c: DependencyContainer, config: Config, infra: Pick<Infrastructure, 'pools' | 'revocations'>): void {
  c.register(REVOCATION_BUS, { useValue: infra.revocations });
  c.register(PgRevocationBus, { useValue: infra.revocations });
  c.register(AUTH_SETTINGS, {
    useValue: { appUrl: config.APP_URL, adminEmails: config.ADMIN_EMAILS, testerEmails: config.TESTER_EMAILS, referralCredits: config.REFERRAL_CREDITS },
  });
  c.register(MAIL_DELIVERY_SETTINGS, { useValue: { relay: Boolean(config.SMTP_URL), printToLog: config.unsafeDefaults } });
  c.register(CREDENTIAL_LOOKUP, { useValue: new PgCredentialLookup(infra.pools.system) });
  c.register(PASSWORD_HASHER, { useValue: new Argon2PasswordHasher({ memoryKib: config.ARGON2_MEMORY_KIB, timeCost: config.ARGON2_TIME_COST }) });
  c.register(SECRET_HASHER, { useValue: new BcryptSecretHasher(config.BCRYPT_ROUNDS, config.BCRYPT_MAX_CONCURRENT) });
  c.register(TOKEN_SIGNER, { useValue: new JoseTokenSigner(config.JWT_SECRET) });
  for (const useCase of [
    CredentialCache, CredentialRevocations, Authenticator, AccountMail, RegisterUser, SignIn, SignOut, VerifyEmail, RequestPasswordReset,
    ResetPassword, GetProfile, UpdateProfile, ChangePassword, DeleteAccount, IssueToken, CreateApiKey, ListApiKeys, GetApiKey, UpdateApiKey, DeleteApiKey,
  ]) {
    c.registerSingleton(useCase as never);
  }
}
