import { api } from '../../api/client.js';
import { ErrorMessage } from '../error-message.js';
import { useAction } from '../use-async.js';
import { count, usd, type Credits } from './types.js';

/** Opens the hosted checkout for a pack; the credits arrive with the processor's confirmation. */
async function buyPack(pack: string): Promise<void> {
  const { url } = await api.post<{ url: string }>('/api/billing', { action: 'buy-credits', pack });
  window.location.assign(url);
  await new Promise(() => {});
}

/** The credit balance and the packs on sale, each with `Buy <credits> credits`. */
export function CreditPacks({ credits }: { credits: Credits }) {
  const { act, busy, error } = useAction(buyPack);
  return (
    <section class="panel" aria-labelledby="credit-packs">
      <h2 id="credit-packs">Credit packs</h2>
      <p>
        Your balance: <strong class="billing-balance">{count(credits.credits)} credits</strong>. Credits are spent once the day's units are used up; one credit buys
        100 units.
      </p>
      <ErrorMessage error={error} />
      <ul class="billing-packs">
        {credits.packs.map((p) => (
          <li key={p.pack} class="card">
            <span>
              <strong>{count(p.credits)} credits</strong> for {usd(p.price)} <span class="muted">({count(p.credits * 100)} units)</span>
            </span>
            <button type="button" class="secondary" disabled={busy} onClick={() => void act(p.pack)}>
              Buy {count(p.credits)} credits
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
