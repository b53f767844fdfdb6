import { api } from '../../api/client.js';
import { Chart } from '../charts/chart.js';
import { CHART_COLORS, unixSeconds } from '../charts/colors.js';
import { ErrorMessage } from '../error-message.js';
import { useLoad } from '../use-async.js';
import { count } from './types.js';

interface UsageHistory {
  dailyUnits: number;
  unitsPerCredit: number;
  days: { day: string; usedUnits: number; creditUnits: number }[];
}

const DAYS = 30;

/** Heading `Usage over time`: units per UTC day for the last 30 days (GET /api/billing/usage) against the plan's daily allowance, and the credits spent. */
export function UsageChart() {
  const history = useLoad(() => api.get<UsageHistory>(`/api/billing/usage?days=${DAYS}`));
  const h = history.data;
  return (
    <section class="panel" aria-labelledby="usage-over-time">
      <h2 id="usage-over-time">Usage over time</h2>
      <ErrorMessage error={history.error} />
      {h ? <UsageFigures history={h} /> : history.loading ? <p aria-busy="true">Loading…</p> : null}
    </section>
  );
}

function UsageFigures({ history }: { history: UsageHistory }) {
  const { days, dailyUnits, unitsPerCredit } = history;
  const used = days.reduce((n, d) => n + d.usedUnits, 0);
  const creditUnits = days.reduce((n, d) => n + d.creditUnits, 0);
  const credits = creditUnits / unitsPerCredit;
  const peak = days.reduce((best, d) => (d.usedUnits > best.usedUnits ? d : best), days[0]!);
  const over = days.filter((d) => dailyUnits > 0 && d.usedUnits > dailyUnits).length;
  const summary =
    used === 0
      ? `No units used in the last ${days.length} days.`
      : `${count(used)} units used in the last ${days.length} days; the busiest day was ${peak.day} with ${count(peak.usedUnits)}. ` +
        `Daily allowance: ${count(dailyUnits)} units${over ? `, passed on ${over} ${over === 1 ? 'day' : 'days'}` : ''}. Credits spent: ${count(credits)}.`;
  return (
    <>
      <Chart
        id="usage-chart"
        title={`AI units per day, last ${days.length} days`}
        summary={summary}
        data={{
          x: days.map((d) => unixSeconds(`${d.day}T00:00:00Z`)),
          series: [
            { label: 'Units used', values: days.map((d) => d.usedUnits), color: CHART_COLORS.accent, style: 'bars' },
            { label: 'Daily allowance', values: days.map(() => dailyUnits), color: CHART_COLORS.muted },
            { label: 'Credits spent', values: days.map((d) => d.creditUnits / unitsPerCredit), color: CHART_COLORS.danger, scale: 'credits' },
          ],
        }}
        table={{ head: 'Day (UTC)', rows: days.map((d) => [d.day, d.usedUnits, dailyUnits, d.creditUnits / unitsPerCredit]) }}
      />
      <p class="muted">Units reset at 00:00 UTC. Beyond the daily allowance, credits pay: one credit buys {count(unitsPerCredit)} units.</p>
    </>
  );
}
