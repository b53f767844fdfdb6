import { useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import { ErrorMessage, Notice } from '../error-message.js';
import { Field } from '../field.js';
import { useAction } from '../use-async.js';

/** Password (POST /api/settings/password): the current one, then the new one. Other sessions end. */
export function PasswordSection() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const change = useAction(async () => {
    setNotice(undefined);
    await api.post('/api/settings/password', { currentPassword: current, newPassword: next });
    setCurrent('');
    setNext('');
    setNotice('Password changed. Every other device where you were signed in has been signed out.');
  });
  return (
    <section class="panel" aria-labelledby="password-heading">
      <h2 id="password-heading">Password</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void change.act();
        }}
      >
        <Field label="Current password" type="password" value={current} onValue={setCurrent} autocomplete="current-password" required />
        <Field label="New password" type="password" value={next} onValue={setNext} autocomplete="new-password" required minLength={8} hint="At least 8 characters." />
        <ErrorMessage error={change.error} />
        {notice ? <Notice>{notice}</Notice> : null}
        <div class="actions">
          <button type="submit" disabled={change.busy}>
            Change password
          </button>
        </div>
      </form>
    </section>
  );
}
