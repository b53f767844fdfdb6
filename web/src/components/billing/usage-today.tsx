import { count, type Usage } from './types.js';

/** Today's metered units: a meter, and the same numbers as text. */
export function UsageToday({ usage }: { usage: Usage }) {
  const { used, dailyUnits, remaining } = usage;
  return (
    <section class="panel" aria-labelledby="usage-today">
      <h2 id="usage-today">Usage today</h2>
      {dailyUnits > 0 ? (
        <>
          <meter class="billing-meter" min={0} max={dailyUnits} value={Math.min(used, dailyUnits)} aria-label="Units used today" />
          <p>
            {count(used)} of {count(dailyUnits)} units used, {count(remaining)} left. Units reset at 00:00 UTC; after that, credits pay (one credit buys 100 units).
          </p>
        </>
      ) : (
        <p>No daily units yet: choose a plan to get some. {used > 0 ? `${count(used)} units used today.` : ''}</p>
      )}
    </section>
  );
}
