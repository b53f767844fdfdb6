import { useLocation } from 'preact-iso';
import { api } from '../api/client.js';
import { ByokPanel } from '../components/billing/byok-panel.js';
import { CreditPacks } from '../components/billing/credit-packs.js';
import { PlanCards, PublicPlans } from '../components/billing/plan-cards.js';
import { planLabel, type Billing, type Credits } from '../components/billing/types.js';
import { UsageChart } from '../components/billing/usage-chart.js';
import { UsageToday } from '../components/billing/usage-today.js';
import { ErrorMessage, Notice } from '../components/error-message.js';
import { useLoad } from '../components/use-async.js';
import { useSession } from '../session.js';
import '../styles/billing.css';

/** /pricing: the plans (for anyone), and for a signed-in user checkout, usage, credit packs and BYOK. */
export function PricingPage() {
  const { user } = useSession();
  return (
    <section class="billing">
      <h1>Plans and billing</h1>
      {user === undefined ? <p aria-busy="true">Loading…</p> : user === null ? <PublicPlans /> : <SignedInPricing />}
    </section>
  );
}

/** What the checkout's return (`?checkout=`) tells the user. */
function ReturnNotice({ checkout, portal }: { checkout: string | undefined; portal?: string | undefined }) {
  if (portal === 'returned') return <Notice>Back from the billing portal: your plan below shows any change you made.</Notice>;
  if (checkout === 'canceled' || checkout === 'cancelled') return <Notice>The checkout was cancelled: nothing was charged and nothing changed.</Notice>;
  if (checkout === 'already-subscribed') return <Notice>You already have a plan: that checkout was not completed and nothing changed. Use "Change or cancel" to switch.</Notice>;
  if (checkout === 'credits') return <Notice>Thank you: your credit pack is paid. The credits are added as soon as the payment processor confirms it.</Notice>;
  return null;
}

function SignedInPricing() {
  const { query } = useLocation();
  const billing = useLoad(() => api.get<Billing>('/api/billing'));
  const credits = useLoad(() => api.get<Credits>('/api/credits'));
  if (billing.error) return <ErrorMessage error={billing.error} />;
  if (!billing.data) return <p aria-busy="true">Loading…</p>;
  const b = billing.data;
  return (
    <>
      <ReturnNotice checkout={query.checkout} portal={query.portal} />
      <p class="billing-summary">
        Your plan: <strong>{planLabel(b.currentPlan, b.plans)}</strong>
        {b.subscriptionStatus !== 'none' ? ` (${b.subscriptionStatus.replace(/_/g, ' ')})` : ''}.
      </p>
      <PlanCards billing={b} />
      <UsageToday usage={b.usage} />
      <UsageChart />
      {credits.error ? (
        <section class="panel" aria-labelledby="credit-packs">
          <h2 id="credit-packs">Credit packs</h2>
          <ErrorMessage error={credits.error} />
        </section>
      ) : credits.data ? (
        <CreditPacks credits={credits.data} />
      ) : (
        <p aria-busy="true">Loading credits…</p>
      )}
      <ByokPanel enabled={b.byokEnabled} onChange={billing.reload} />
    </>
  );
}
