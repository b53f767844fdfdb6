import { useEffect } from 'preact/hooks';
import { api } from '../../api/client.js';
import { ErrorMessage } from '../error-message.js';
import { useLoad } from '../use-async.js';
import { StatsSparklines } from './stats-sparklines.js';
import { useInterval } from './use-interval.js';

/** The figures shown, in order, with their names; any other figure the API adds is left out. */
const FIGURES: [key: string, label: string][] = [
  ['status', 'Status'],
  ['cpu', 'CPU'],
  ['memory', 'Memory'],
  ['memoryPercent', 'Memory (percent)'],
  ['network', 'Network'],
  ['uptimeFormatted', 'Uptime'],
  ['pids', 'Processes'],
  ['messagesProcessed', 'Messages processed'],
  ['messagesPerHour', 'Messages per hour'],
  ['averageResponseTime', 'Average response time'],
  ['successRate', 'Success rate'],
  ['errorRate', 'Error rate'],
];

const REFRESH_MS = 5000;

/** Heading `Live stats`: GET /api/agents/:id/stats, again every few seconds while the page is open. Values are shown as sent (`N/A` too). */
export function StatsPanel({ agentId, status }: { agentId: string; status?: string }) {
  const stats = useLoad(() => api.get<{ stats: Record<string, string | number>; status: string }>(`/api/agents/${encodeURIComponent(agentId)}/stats`), [agentId]);
  useInterval(stats.reload, REFRESH_MS);
  // a lifecycle move or an answered message: read the figures again at once, not at the next tick
  useEffect(() => {
    if (status !== undefined) void stats.reload();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [status]);
  const s = stats.data?.stats;
  const shown = s ? FIGURES.filter(([k]) => s[k] !== undefined) : [];
  // the mock variant carries uptime in milliseconds only
  const uptime = s && s.uptimeFormatted === undefined && typeof s.uptime === 'number' ? `${Math.round(s.uptime / 1000)} s` : undefined;
  return (
    <section class="panel" aria-labelledby="agent-stats-heading">
      <h2 id="agent-stats-heading">Live stats</h2>
      <ErrorMessage error={stats.error} />
      {stats.data?.status === 'mock' ? <p class="muted">The runtime cannot be reached: these figures are estimates.</p> : null}
      {s ? (
        <dl class="agent-stats">
          {shown.map(([k, label]) => (
            <div key={k}>
              <dt>{label}</dt>
              <dd>{shownValue(k, s[k]!)}</dd>
            </div>
          ))}
          {uptime ? (
            <div>
              <dt>Uptime</dt>
              <dd>{uptime}</dd>
            </div>
          ) : null}
        </dl>
      ) : stats.loading ? (
        <p aria-busy="true">Loading…</p>
      ) : null}
      <StatsSparklines stats={stats.data?.status === 'ok' ? s : undefined} />
    </section>
  );
}

/** A figure with its unit where the API sends a bare number (milliseconds for the response time). */
function shownValue(key: string, value: string | number): string {
  if (key === 'averageResponseTime' && typeof value === 'number') return `${value} ms`;
  return String(value);
}
