import { grantsListedRights, normalizeEmail, type Role } from '../accounts/account-rules.js';
import { isCheckoutPlan, type CheckoutPlan } from '../billing/plan-catalogs.js';
import { DomainError } from '../shared/domain-error.js';

/**
 * POST /api/provision (spec "POST /api/provision (agent with channel tokens)"): an agent bound to
 * messaging channels. The spec names its channels only by kind; here they are letters:
 * A the bot-messaging app, B the phone-messaging app, C the community-chat bot.
 */
export const CHANNELS = ['A', 'B', 'C'] as const;
export type Channel = (typeof CHANNELS)[number];

/**
 * The fields the spec removed ("no longer accepted"), under the neutral names this service uses:
 * the phone-messaging phone-number id and business-account id (channel B), the community-chat
 * guild id and channel id (channel C). A body carrying any of them is refused (400), naming them.
 */
export const REMOVED_PROVISION_FIELDS = ['phoneNumberIdB', 'businessAccountIdB', 'guildIdC', 'channelIdC'] as const;

/** The plan was `free` or omitted: nothing is provisioned without a paid plan. HTTP 402. */
export class PaymentRequiredError extends DomainError {
  constructor(given: string | undefined) {
    super('PAYMENT_REQUIRED', given === undefined ? 'A paid plan is required (solo, collective, label or network)' : `The ${given} plan cannot provision: a paid plan is required`);
  }
}

/** The requested plan if it is a paid (checkout) plan; PaymentRequiredError for `free` or none. */
export function requirePaidPlan(plan: string | undefined): CheckoutPlan {
  if (!isCheckoutPlan(plan)) throw new PaymentRequiredError(plan);
  return plan;
}

export type PaymentBypass = 'admin' | 'tester';

/**
 * CONTRACT.md section 4: an e-mail in the body proves nothing by itself. The admin or tester
 * bypass applies only when the body's `email` is the caller's own address and that address is
 * an admin's (the caller's role, decided from ADMIN_EMAILS) or listed in TESTER_EMAILS, and,
 * like an admin's, verified: a listed address nobody has shown they own grants nothing.
 */
export function paymentBypassOf(
  caller: { email: string; emailVerified: boolean; role: Role },
  claimedEmail: string | undefined,
  testerEmails: readonly string[],
): PaymentBypass | null {
  if (claimedEmail === undefined || normalizeEmail(claimedEmail) !== normalizeEmail(caller.email)) return null;
  if (caller.role === 'admin') return 'admin';
  return grantsListedRights(caller.email, caller.emailVerified, testerEmails) ? 'tester' : null;
}
