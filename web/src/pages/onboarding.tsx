import { useEffect, useState } from 'preact/hooks';
import { api } from '../api/client.js';
import { planLabel, type Billing } from '../components/billing/types.js';
import { ErrorMessage } from '../components/error-message.js';
import { RequireSession } from '../components/layout.js';
import { useLoad } from '../components/use-async.js';
import { useSession } from '../session.js';
import '../styles/billing.css';

/** How often, and how many times, the page asks again while the processor's confirmation is on its way. */
const RECHECK_MS = 2000;
const RECHECKS = 15;

/** /onboarding: where a paid checkout lands. Shows the plan now active and the next step. */
export function OnboardingPage() {
  return (
    <RequireSession>
      <Onboarding />
    </RequireSession>
  );
}

function Onboarding() {
  const { user } = useSession();
  // GET /api/auth/session also says the role: an admin needs no plan, and checkout sends them straight here.
  const admin = (user as { role?: string } | null | undefined)?.role === 'admin';
  const billing = useLoad(() => api.get<Billing>('/api/billing'));
  const [checks, setChecks] = useState(0);
  const pending = billing.data?.currentPlan === 'free' && !admin;
  // With a real processor the confirmation (webhook) can trail the redirect by a few seconds.
  useEffect(() => {
    if (!pending || checks >= RECHECKS) return;
    const t = setTimeout(() => {
      setChecks((n) => n + 1);
      void billing.reload();
    }, RECHECK_MS);
    return () => clearTimeout(t);
  }, [pending, checks]);

  if (billing.error) return <ErrorMessage error={billing.error} />;
  if (!billing.data) return <p aria-busy="true">Loading…</p>;
  const b = billing.data;
  if (pending)
    return (
      <section class="billing">
        <h1>Confirming your payment</h1>
        {checks < RECHECKS ? (
          <p aria-busy="true" role="status">
            The payment processor has not confirmed your subscription yet. This page checks again by itself.
          </p>
        ) : (
          <p role="status">
            No confirmation has arrived yet. If you cancelled the payment, nothing was charged; <a href="/pricing">see the plans</a>. Otherwise reload this page in a
            minute.
          </p>
        )}
      </section>
    );
  const offer = b.plans[b.currentPlan];
  if (admin && b.currentPlan === 'free')
    return (
      <section class="billing">
        <h1>You're all set</h1>
        <p class="billing-summary">As an administrator you need no plan: you may provision agents as they are.</p>
        <p>
          <a class="button" href="/agents">
            Provision your first agent
          </a>
        </p>
      </section>
    );
  return (
    <section class="billing">
      <h1>You're subscribed</h1>
      <p class="billing-summary">
        Your plan <strong>{planLabel(b.currentPlan, b.plans)}</strong> is {b.subscriptionStatus.replace(/_/g, ' ')}.
      </p>
      {offer ? (
        <ul class="billing-features">
          {offer.features.map((f) => (
            <li key={f}>{f}</li>
          ))}
        </ul>
      ) : null}
      <p>
        <a class="button" href="/agents">
          Provision your first agent
        </a>
      </p>
      <p>
        <a href="/pricing">Plans and billing</a>
      </p>
    </section>
  );
}
