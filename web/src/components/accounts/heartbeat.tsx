import { useEffect, useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import { ErrorMessage, Notice } from '../error-message.js';
import { Field } from '../field.js';
import { useAction, useLoad } from '../use-async.js';
import { Checkbox } from './checkbox.js';
import { when } from './format.js';
import type { Heartbeat } from './types.js';

/** Heartbeat (GET/POST/DELETE /api/heartbeat): how often the running agents are woken, and whether at all. */
export function HeartbeatSection() {
  const hb = useLoad(() => api.get<{ heartbeat: Heartbeat; message: string }>('/api/heartbeat').then((r) => r.heartbeat));
  const [frequency, setFrequency] = useState('');
  const [enabled, setEnabled] = useState(false);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  useEffect(() => {
    if (hb.data) {
      setFrequency(hb.data.frequency);
      setEnabled(hb.data.enabled);
    }
  }, [hb.data]);
  const save = useAction(async () => {
    setNotice(undefined);
    const r = await api.post<Heartbeat & { message: string }>('/api/heartbeat', { frequency: frequency.trim(), enabled });
    hb.setData({ frequency: r.frequency, enabled: r.enabled, lastHeartbeat: r.lastHeartbeat, nextHeartbeat: r.nextHeartbeat });
    setNotice('Heartbeat saved.');
  });
  const reset = useAction(async () => {
    setNotice(undefined);
    await api.delete('/api/heartbeat');
    await hb.reload();
    setNotice('Heartbeat reset to the defaults.');
  });
  return (
    <section class="panel" aria-labelledby="heartbeat-heading">
      <h2 id="heartbeat-heading">Heartbeat</h2>
      <p class="muted">While enabled, a heartbeat message goes to each of your running agents at this interval; their answers land in their conversations. Each heartbeat uses AI units from your plan.</p>
      <ErrorMessage error={hb.error} />
      {hb.data === undefined ? (
        hb.loading ? <p aria-busy="true">Loading…</p> : null
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void save.act();
          }}
        >
          <Field label="Frequency" value={frequency} onValue={setFrequency} required maxLength={32} hint="A number and m, h or d, from 5m to 30d: for example 30m, 3h or 1d." />
          <Checkbox label="Enabled" checked={enabled} onChecked={setEnabled} />
          <p class="muted">
            Last heartbeat: {when(hb.data.lastHeartbeat)}. Next: {hb.data.enabled ? when(hb.data.nextHeartbeat, 'not planned') : 'none while disabled'}.
          </p>
          <ErrorMessage error={save.error ?? reset.error} />
          {notice ? <Notice>{notice}</Notice> : null}
          <div class="actions">
            <button type="submit" disabled={save.busy}>
              Save heartbeat
            </button>
            <button type="button" class="secondary" disabled={reset.busy} onClick={() => void reset.act()}>
              Reset to defaults
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
