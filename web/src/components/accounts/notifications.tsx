import { useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import { ErrorMessage, Notice } from '../error-message.js';
import { useAction } from '../use-async.js';
import { Checkbox } from './checkbox.js';
import { humanize } from './format.js';
import type { Profile } from './types.js';

/**
 * The preferences the console offers from the start. The API stores any object of booleans
 * (CONTRACT.md 7) and a new account has none saved, so these show unchecked until saved; any other
 * key the API returns is shown too.
 */
const KNOWN: Record<string, string> = {
  agentAlerts: 'Agent alerts: an agent stopped or failed',
  billing: 'Billing: payments, receipts and usage limits',
  productUpdates: 'Product news and new features',
};

/** Notifications (PATCH /api/settings `notifications`): one checkbox per preference. */
export function NotificationsSection({ profile, onSaved }: { profile: Profile; onSaved: (p: Profile) => void }) {
  const keys = [...new Set([...Object.keys(KNOWN), ...Object.keys(profile.notifications)])];
  const [values, setValues] = useState<Record<string, boolean>>(() => Object.fromEntries(keys.map((k) => [k, profile.notifications[k] ?? false])));
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const save = useAction(async () => {
    setNotice(undefined);
    const saved = await api.patch<Profile>('/api/settings', { notifications: values });
    onSaved(saved);
    setNotice('Notification preferences saved.');
  });
  return (
    <section class="panel" aria-labelledby="notifications-heading">
      <h2 id="notifications-heading">Notifications</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save.act();
        }}
      >
        <fieldset>
          <legend>Tell me about</legend>
          {keys.map((k) => (
            <Checkbox key={k} label={KNOWN[k] ?? humanize(k)} checked={values[k] ?? false} onChecked={(v) => setValues((old) => ({ ...old, [k]: v }))} />
          ))}
        </fieldset>
        <ErrorMessage error={save.error} />
        {notice ? <Notice>{notice}</Notice> : null}
        <div class="actions">
          <button type="submit" disabled={save.busy}>
            Save notifications
          </button>
        </div>
      </form>
    </section>
  );
}
