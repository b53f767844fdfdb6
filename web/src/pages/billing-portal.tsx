import { useLocation } from 'preact-iso';
import { api } from '../api/client.js';
import { ErrorMessage, Notice } from '../components/error-message.js';
import { useAction, useLoad } from '../components/use-async.js';
import '../styles/billing.css';

interface PortalSubscription {
  id: string;
  plan: string;
  catalog: string;
  status: string;
  switchTo: string[];
}

const title = (plan: string) => plan.charAt(0).toUpperCase() + plan.slice(1);

/**
 * /billing/portal?session=: the development processor's customer portal (what Stripe's portal is
 * with a real processor). The signed session in the link vouches for the user; a switch or a
 * cancel goes through the same subscription-event path as a processor's (POST /api/psp/dev/portal).
 */
export function BillingPortalPage() {
  const { query } = useLocation();
  const session = query.session ?? '';
  const page = useLoad(() => api.get<{ returnUrl: string; subscriptions: PortalSubscription[] }>(`/api/psp/dev/portal?session=${encodeURIComponent(session)}`), [session]);
  const change = useAction(async (subscriptionId: string, action: 'switch' | 'cancel', plan?: string) => {
    const r = await api.post<{ returnUrl: string }>('/api/psp/dev/portal', { session, subscriptionId, action, ...(plan ? { plan } : {}) });
    await page.reload();
    return r;
  });
  return (
    <section class="billing">
      <h1>Billing portal</h1>
      <Notice>Test billing portal: this service runs without a payment processor, so nothing is charged or refunded here.</Notice>
      <ErrorMessage error={page.error ?? change.error} />
      {page.data ? (
        <>
          {page.data.subscriptions.length === 0 ? <p>You have no active plan to change.</p> : null}
          {page.data.subscriptions.map((s) => (
            <section key={s.id} class="panel" aria-labelledby={`portal-${s.id}`}>
              <h2 id={`portal-${s.id}`}>Your {title(s.plan)} plan</h2>
              <p>Status: {s.status}</p>
              <div class="actions">
                {s.switchTo.map((p) => (
                  <button key={p} type="button" disabled={change.busy} onClick={() => void change.act(s.id, 'switch', p)}>
                    Switch to {title(p)}
                  </button>
                ))}
                <button type="button" class="danger" disabled={change.busy} onClick={() => void change.act(s.id, 'cancel')}>
                  Cancel plan
                </button>
              </div>
            </section>
          ))}
          <p>
            <a href={new URL(page.data.returnUrl, location.origin).pathname + new URL(page.data.returnUrl, location.origin).search}>Return to plans and billing</a>
          </p>
        </>
      ) : page.loading ? (
        <p aria-busy="true">Loading…</p>
      ) : null}
    </section>
  );
}
