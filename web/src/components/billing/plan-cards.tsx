import { useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import { ErrorMessage } from '../error-message.js';
import { useAction } from '../use-async.js';
import { count, PUBLIC_PLANS, usd, type Billing, type BillingPlanId } from './types.js';

/** Leaves for a processor's page; stays busy until the browser has gone. */
async function leaveFor(url: string): Promise<void> {
  window.location.assign(url);
  await new Promise(() => {});
}

/** The development processor's checkout link (this service's own page): nothing is charged there. */
const isDevCheckout = (url: string) => new URL(url, location.origin).pathname === '/api/psp/dev/complete';

/** Opens the processor's customer portal, where a plan is switched or cancelled. */
export function ChangeOrCancel() {
  const portal = useAction(async () => leaveFor((await api.post<{ url: string }>('/api/billing', { action: 'portal' })).url));
  return (
    <div class="billing-portal">
      <button type="button" disabled={portal.busy} onClick={() => void portal.act()}>
        Change or cancel
      </button>
      <ErrorMessage error={portal.error} />
    </div>
  );
}

/** One card per billing plan: its name, price, features, and `Choose <name>` (disabled for the current plan). */
export function PlanCards({ billing }: { billing: Billing }) {
  // the development processor's checkout: a step that says plainly nothing is charged
  const [devCheckout, setDevCheckout] = useState<{ url: string; name: string } | null>(null);
  const { act, busy, error } = useAction(async (plan: BillingPlanId, name: string) => {
    const { url } = await api.post<{ url: string }>('/api/billing', { action: 'create-checkout', plan });
    if (isDevCheckout(url)) setDevCheckout({ url, name });
    else await leaveFor(url);
  });
  const ids = Object.keys(billing.plans) as BillingPlanId[];
  const subscribed = billing.currentPlan !== 'free' && ids.includes(billing.currentPlan as BillingPlanId);
  if (devCheckout) {
    return (
      <section class="panel" aria-labelledby="dev-checkout-heading">
        <h2 id="dev-checkout-heading">Test checkout: nothing is charged</h2>
        <p>
          This service runs without a payment processor. Confirming gives you the {devCheckout.name} plan for testing; no card is asked for and
          no money moves.
        </p>
        <div class="actions">
          <a class="button" href={devCheckout.url} target="_top">
            Confirm {devCheckout.name} (no charge)
          </a>
          <button type="button" class="secondary" onClick={() => setDevCheckout(null)}>
            Cancel
          </button>
        </div>
      </section>
    );
  }
  return (
    <>
      {subscribed ? (
        <>
          <p class="muted">To switch to another plan or to cancel yours, use the billing portal.</p>
          <ChangeOrCancel />
        </>
      ) : null}
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
              <p class="billing-models">{modelAccessOf(plan.features)}</p>
              <button type="button" disabled={current || busy || subscribed} onClick={() => void act(id, plan.name)}>
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

/**
 * The plan's model access in plain words, from its feature line (`label / solo / collective model
 * access`): the level names which models of the catalog (src/domain/ai/model-catalog.ts) it may use.
 */
function modelAccessOf(features: readonly string[]): string {
  const line = features.find((f) => /model access/i.test(f)) ?? '';
  if (/network/i.test(line)) return 'Models: all 10, the largest reasoning and vision models included.';
  if (/collective/i.test(line)) return 'Models: 6, adding stronger coding and reasoning models to the solo ones.';
  if (/solo/i.test(line)) return 'Models: 4, adding two fast models (one reads very long documents) to the label ones.';
  return 'Models: 2 low-cost models, good for everyday chat and code.';
}
