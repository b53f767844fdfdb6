import type { ByokKeyRepository } from '../byok-key-repository.port.js';
import type { UserMetricsReader } from '../metrics-store.port.js';
import type { SystemOneCallGrantRepository } from '../one-call-grant-repository.port.js';
import type { PaymentCustomerRepository, SystemPaymentCustomerRepository } from '../payment-customer-repository.port.js';
import type { PaymentLedger } from '../payment-ledger.port.js';
import type { SubscriptionRepository, SystemSubscriptionRepository } from '../subscription-repository.port.js';
import type { UnmatchedPaymentRepository } from '../unmatched-payment-repository.port.js';
import type { SystemUserRepository, UserRepository } from '../user-repository.port.js';
import type { SharedSystemScope, SharedUserScope } from './shared-scope.port.js';

/** What the billing use cases (billing, ai) may touch as one user. */
export interface BillingUserScope extends SharedUserScope {
  subscriptions: SubscriptionRepository;
  paymentCustomers: PaymentCustomerRepository;
  byokKeys: ByokKeyRepository;
  // Of other areas: checkout reads the user, usage history their metrics.
  users: UserRepository;
  metrics: UserMetricsReader;
}

/** What they may touch as the system. */
export interface BillingSystemScope extends SharedSystemScope {
  subscriptions: SystemSubscriptionRepository;
  paymentCustomers: SystemPaymentCustomerRepository;
  paymentLedger: PaymentLedger;
  unmatchedPayments: UnmatchedPaymentRepository;
  // Of other areas: a payment event finds its user, and may pay for a one-call grant.
  users: SystemUserRepository;
  oneCallGrants: SystemOneCallGrantRepository;
}
