import { api } from '../../api/client.js';
import { Chart } from '../charts/chart.js';
import { CHART_COLORS, unixSeconds } from '../charts/colors.js';
import { ErrorMessage } from '../error-message.js';
import { useLoad } from '../use-async.js';
import { useInterval } from './use-interval.js';

interface Activity {
  from: string;
  to: string;
  events: { kind: string; reason: string | null; durationMs: number | null; at: string }[];
  messagesPerHour: { hour: string; answered: number; failed: number }[];
}

const HOURS = 24;
const REFRESH_MS = 30_000;

/** What each stored event kind says in the timeline; the bad ones are marked. */
const KINDS: Record<string, [label: string, bad: boolean]> = {
  provisioned: ['Provisioned', false],
  provision_failed: ['Provisioning failed', true],
  started: ['Started', false],
  stopped: ['Stopped', false],
  crashed: ['Crashed', true],
  repaired: ['Repaired', false],
  message_failed: ['A message failed', true],
  heartbeat_skipped: ['Heartbeat skipped', false],
  heartbeat: ['Heartbeat sent', false],
  skill_call: ['Skill call', false],
  mcp_call: ['MCP call', false],
};

const hourLabel = (iso: string) => `${iso.slice(0, 13).replace('T', ' ')}:00 UTC`;
const timeLabel = (iso: string) => `${iso.slice(0, 19).replace('T', ' ')} UTC`;

/** Heading `Activity`: the agent's stored events of the last 24 hours (GET /api/agents/:id/activity) as a timeline, and its messages per hour as a chart. */
export function ActivityPanel({ agentId, status }: { agentId: string; status?: string }) {
  const activity = useLoad(() => api.get<Activity>(`/api/agents/${encodeURIComponent(agentId)}/activity?hours=${HOURS}`), [agentId, status]);
  useInterval(activity.reload, REFRESH_MS);
  const a = activity.data;
  return (
    <section class="panel" aria-labelledby="agent-activity-heading">
      <h2 id="agent-activity-heading">Activity</h2>
      <ErrorMessage error={activity.error} />
      {a ? <ActivityFigures activity={a} /> : activity.loading ? <p aria-busy="true">Loading…</p> : null}
    </section>
  );
}

function ActivityFigures({ activity }: { activity: Activity }) {
  const hours = activity.messagesPerHour;
  const answered = hours.reduce((n, h) => n + h.answered, 0);
  const failed = hours.reduce((n, h) => n + h.failed, 0);
  const peak = hours.reduce((best, h) => (h.answered + h.failed > best.answered + best.failed ? h : best), hours[0]!);
  const summary =
    answered + failed === 0
      ? `No messages in the last ${hours.length} hours.`
      : `${answered} answered and ${failed} failed in the last ${hours.length} hours; the busiest hour was ${hourLabel(peak.hour)} with ${peak.answered + peak.failed}.`;
  return (
    <>
      <Chart
        id="messages-chart"
        title={`Messages per hour, last ${hours.length} hours`}
        summary={summary}
        height={150}
        data={{
          x: hours.map((h) => unixSeconds(h.hour)),
          series: [
            { label: 'Answered', values: hours.map((h) => h.answered), color: CHART_COLORS.ok, style: 'bars' },
            { label: 'Failed', values: hours.map((h) => h.failed), color: CHART_COLORS.danger, style: 'bars' },
          ],
        }}
        table={{ head: 'Hour', rows: hours.filter((h) => h.answered + h.failed > 0).map((h) => [hourLabel(h.hour), h.answered, h.failed]) }}
      />
      <h3>Timeline</h3>
      {activity.events.length === 0 ? (
        <p class="muted">Nothing happened to this agent in the last {hours.length} hours.</p>
      ) : (
        <ol class="activity-timeline" aria-label="Activity timeline">
          {activity.events.map((e, i) => {
            const [label, bad] = KINDS[e.kind] ?? [e.kind, false];
            return (
              <li key={`${e.at}-${i}`} class={bad ? 'activity-bad' : undefined} data-kind={e.kind}>
                <time dateTime={e.at}>{timeLabel(e.at)}</time>
                <span class="activity-kind">{label}</span>
                {e.reason ? <span class="activity-reason">{e.reason}</span> : null}
                {e.durationMs !== null ? <span class="muted">({(e.durationMs / 1000).toFixed(1)} s)</span> : null}
              </li>
            );
          })}
        </ol>
      )}
    </>
  );
}
