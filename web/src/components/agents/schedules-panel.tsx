import { useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import { when } from '../accounts/format.js';
import { ErrorMessage, Notice } from '../error-message.js';
import { Field, TextArea } from '../field.js';
import { useAction, useLoad } from '../use-async.js';

/** GET /api/agents/:id/schedules (CONTRACT.md "scheduled runs"). */
interface Schedule {
  id: string;
  cron: string;
  timezone: string;
  content: string;
  nextRunAt: string;
}

/** GET /api/agents/:id/schedules/:scheduleId/runs. */
interface ScheduleRun {
  dueAt: string;
  outcome: 'sent' | 'skipped';
  reason: string | null;
  messageId: string | null;
  ranAt: string;
}

/** The reader's own zone, offered as the default (the API's default is UTC). */
const localZone = (): string => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
};

/**
 * Heading `Schedules`: messages the agent is sent on a cron (POST/GET/DELETE
 * /api/agents/:id/schedules). Each schedule shows its next run in the reader's local time; `Runs`
 * shows its last ticks, sent or skipped and why (a stopped agent's ticks are skipped).
 */
export function SchedulesPanel({ agentId }: { agentId: string }) {
  const base = `/api/agents/${encodeURIComponent(agentId)}/schedules`;
  const schedules = useLoad(() => api.get<{ schedules: Schedule[] }>(base).then((r) => r.schedules), [agentId]);
  const [cron, setCron] = useState('');
  const [timezone, setTimezone] = useState(localZone);
  const [content, setContent] = useState('');
  const [added, setAdded] = useState<Schedule | undefined>(undefined);
  const [shown, setShown] = useState<{ id: string; runs: ScheduleRun[] } | undefined>(undefined);
  const add = useAction(async () => {
    const r = await api.post<{ schedule: Schedule }>(base, { cron: cron.trim(), timezone: timezone.trim() || undefined, content });
    setAdded(r.schedule);
    setCron('');
    setContent('');
    await schedules.reload();
  });
  const remove = useAction(async (id: string) => {
    await api.delete(`${base}/${encodeURIComponent(id)}`);
    if (shown?.id === id) setShown(undefined);
    if (added?.id === id) setAdded(undefined);
    await schedules.reload();
  });
  const runs = useAction(async (id: string) => {
    const r = await api.get<{ runs: ScheduleRun[] }>(`${base}/${encodeURIComponent(id)}/runs`);
    setShown({ id, runs: r.runs });
  });
  const list = schedules.data;
  return (
    <section class="panel" aria-labelledby="agent-schedules-heading">
      <h2 id="agent-schedules-heading">Schedules</h2>
      <p class="muted">The agent is sent your message at each tick of the cron, as if you had written it; each answer is metered like any other.</p>
      <ErrorMessage error={schedules.error ?? remove.error ?? runs.error} />
      {list && list.length === 0 ? <p class="muted">No schedules yet.</p> : null}
      {list && list.length > 0 ? (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Schedules of this agent</caption>
            <thead>
              <tr>
                <th scope="col">Cron</th>
                <th scope="col">Timezone</th>
                <th scope="col">Message</th>
                <th scope="col">Next run</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((s) => (
                <tr key={s.id}>
                  <th scope="row">
                    <code>{s.cron}</code>
                  </th>
                  <td>{s.timezone}</td>
                  <td>{s.content.length > 80 ? `${s.content.slice(0, 80)}…` : s.content}</td>
                  <td>{when(s.nextRunAt)}</td>
                  <td>
                    <button type="button" class="secondary" disabled={runs.busy} onClick={() => void runs.act(s.id)} aria-label={`Runs of ${s.cron}`}>
                      Runs
                    </button>{' '}
                    <button type="button" class="danger" disabled={remove.busy} onClick={() => void remove.act(s.id)} aria-label={`Remove schedule ${s.cron}`}>
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {shown ? (
        <div role="group" aria-label="Last runs">
          <h3>Last runs</h3>
          {shown.runs.length === 0 ? (
            <p class="muted">It has not ticked yet.</p>
          ) : (
            <ul>
              {shown.runs.map((r) => (
                <li key={r.dueAt}>
                  {when(r.dueAt)}: {r.outcome === 'sent' ? 'sent' : `skipped (${r.reason ?? 'no reason'})`}
                </li>
              ))}
            </ul>
          )}
        </div>
      ) : null}
      <form
        aria-label="Add a schedule"
        onSubmit={(e) => {
          e.preventDefault();
          setAdded(undefined);
          void add.act();
        }}
      >
        <Field label="Cron" value={cron} onValue={setCron} required maxLength={200} autocomplete="off" placeholder="0 9 * * 1-5" hint="Five fields: minute hour day-of-month month day-of-week (or @hourly, @daily, @weekly). At most once a minute." />
        <Field label="Timezone" value={timezone} onValue={setTimezone} maxLength={64} autocomplete="off" hint="An IANA name such as Europe/Berlin; UTC when empty." />
        <TextArea label="Text to send" value={content} onValue={setContent} rows={3} />
        <div class="actions">
          <button type="submit" disabled={add.busy}>
            Add schedule
          </button>
        </div>
        <ErrorMessage error={add.error} />
        {added ? <Notice>Scheduled: next run {when(added.nextRunAt)}.</Notice> : null}
      </form>
    </section>
  );
}
