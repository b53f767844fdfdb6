import type { ApiKeyRepository } from '../api-key-repository.port.js';
import type { OAuthFlowRepository, OAuthIdentityRepository } from '../oauth-repositories.port.js';
import type { SessionRepository } from '../session-repository.port.js';
import type { SingleUseTokenRepository } from '../single-use-token-repository.port.js';
import type { SocialSessionRepository } from '../social-session-repository.port.js';
import type { SystemUserRepository, UserRepository } from '../user-repository.port.js';
import type { WalletIdentityRepository, WalletNonceRepository } from '../wallet-sign-in-repositories.port.js';
import type { MailOutbox } from '../outbox.port.js';
import type { SystemPaymentCustomerRepository } from '../payment-customer-repository.port.js';
import type { PaymentLedger } from '../payment-ledger.port.js';
import type { SystemSubscriptionRepository } from '../subscription-repository.port.js';
import type { UnmatchedPaymentRepository } from '../unmatched-payment-repository.port.js';
import type { SystemOneCallGrantRepository } from '../one-call-grant-repository.port.js';
import type { PayoutRepository } from '../payout-repository.port.js';
import type { WalletRepository } from '../wallet-repository.port.js';
import type { SharedSystemScope, SharedUserScope } from './shared-scope.port.js';

/** What the accounts use cases (accounts, api-keys, identity) may touch as one user. */
export interface AccountsUserScope extends SharedUserScope {
  users: UserRepository;
  sessions: SessionRepository;
  apiKeys: ApiKeyRepository;
  // Of other areas: an account is not deleted while its wallet holds funds or owes payouts.
  wallets: WalletRepository;
  payouts: PayoutRepository;
}

/** What they may touch before the user is known: sign-up, sign-in and their single-use tokens. */
export interface AccountsSystemScope extends SharedSystemScope {
  users: SystemUserRepository;
  sessions: SessionRepository;
  emailVerifications: SingleUseTokenRepository<{ email: string }>;
  passwordResets: SingleUseTokenRepository;
  walletNonces: WalletNonceRepository;
  walletIdentities: WalletIdentityRepository;
  socialSessions: SocialSessionRepository;
  oauthFlows: OAuthFlowRepository;
  oauthIdentities: OAuthIdentityRepository;
  // Of other areas: account mail is queued for delivery, and a verified email settles the
  // payments held for it (billing's and the gateway's tables).
  mailOutbox: MailOutbox;
  subscriptions: SystemSubscriptionRepository;
  paymentCustomers: SystemPaymentCustomerRepository;
  paymentLedger: PaymentLedger;
  unmatchedPayments: UnmatchedPaymentRepository;
  oneCallGrants: SystemOneCallGrantRepository;
}
