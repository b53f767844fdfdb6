import { api } from '../../api/client.js';
import { ErrorMessage } from '../error-message.js';
import { useAction } from '../use-async.js';
import { count, PUBLIC_PLANS, usd, type Billing, type BillingPlanId } from './types.js';

/** Opens the processor's hosted checkout (the development processor's completion page, or Stripe's). */
async function startCheckout(plan: BillingPlanId): Promise<void> {
  const { url } = await api.post<{ url: string }>('/api/billing', { action: 'create-checkout', plan });
  window.location.assign(url);
  // the browser is leaving: stay busy until it has
  await new Promise(() => {});
}

/** One card per billing plan: its name, price, features, and `Choose <name>` (disabled for the current plan). */
export function PlanCards({ billing }: { billing: Billing }) {
  const { act, busy, error } = useAction(startCheckout);
  const ids = Object.keys(billing.plans) as BillingPlanId[];
  return (
    <>
      {billing.currentPlan !== 'free' ? <p class="muted">Choosing another plan adds a subscription: the best plan you hold is the one that applies.</p> : null}
      <ErrorMessage error={error} />
      <div class="cards billing-plans">
        {ids.map((id) => {
          const plan = billing.plans[id]!;
          const current = billing.currentPlan === id;
          return (
            <article key={id} class={current ? 'card billing-plan current' : 'card billing-plan'} aria-current={current ? 'true' : undefined}>
              <h2>{plan.name}</h2>
              <p class="billing-price">
                <strong>{usd(plan.price)}</strong> <span class="muted">USD a month</span>
              </p>
              <ul class="billing-features">
                {plan.features.map((f) => (
                  <li key={f}>{f}</li>
                ))}
              </ul>
              {current ? <p class="billing-current">Your current plan</p> : null}
              <button type="button" disabled={current || busy} onClick={() => void act(id)}>
                Choose {plan.name}
              </button>
            </article>
          );
        })}
      </div>
    </>
  );
}

/** The plans for a visitor who is not signed in: GET /api/billing needs a session, so a plain list. */
export function PublicPlans() {
  return (
    <>
      <div class="cards billing-plans">
        {PUBLIC_PLANS.map((p) => (
          <article key={p.id} class="card billing-plan">
            <h2>{p.name}</h2>
            <p class="billing-price">
              <strong>{usd(p.price)}</strong> <span class="muted">USD a month</span>
            </p>
            <p>{count(p.dailyUnits)} AI units per day</p>
          </article>
        ))}
      </div>
      <p>
        <a class="button" href="/signin?next=%2Fpricing">
          Sign in to subscribe
        </a>{' '}
        or <a href="/signup">create an account</a>.
      </p>
    </>
  );
}
