import { parsePurchasablePlan } from '../../../../domain/billing/purchasable-plan.js';
import { isSubscriptionStatus } from '../../../../domain/billing/subscription.js';

/**
 * A subscription read as one `status:catalog:plan` text (every part a constrained identifier, so
 * no separator can occur inside one): an array of these is the cheapest shape for a statement to
 * build. An empty part stands for NULL (a plan not known; the catalog is then read from the plan's
 * id). A status this code does not know is left out.
 */
export function subscriptionFromText(text: string) {
  const [status, catalog, plan] = text.split(':');
  return isSubscriptionStatus(status) ? [{ status, plan: parsePurchasablePlan(plan || null, catalog || null) ?? null }] : [];
}
