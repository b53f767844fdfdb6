import { useLocation } from 'preact-iso';
import { useState } from 'preact/hooks';
import { api } from '../api/client.js';
import { ErrorMessage, Notice } from '../components/error-message.js';
import { Field } from '../components/field.js';
import { useAction } from '../components/use-async.js';
import '../styles/accounts.css';

/** /reset-password?token=: the reset mail's link. Sets the new password; every session ends. */
export function ResetPasswordPage() {
  const { query } = useLocation();
  const token = query.token;
  const [password, setPassword] = useState('');
  const [done, setDone] = useState<string | undefined>(undefined);
  const reset = useAction(async () => {
    const r = await api.post<{ message: string }>('/api/auth/reset-password', { token, password });
    setDone(r.message);
  });
  if (!token)
    return (
      <section class="auth-page">
        <h1>Choose a new password</h1>
        <p>
          This page needs the link from the reset mail. Open the mail and follow its link, or <a href="/forgot-password">ask for a new one</a>.
        </p>
      </section>
    );
  if (done)
    return (
      <section class="auth-page">
        <h1>Password changed</h1>
        <Notice>{done}</Notice>
        <p>
          <a href="/signin">Sign in</a>
        </p>
      </section>
    );
  return (
    <section class="auth-page">
      <h1>Choose a new password</h1>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void reset.act();
        }}
      >
        <Field label="New password" type="password" value={password} onValue={setPassword} autocomplete="new-password" required minLength={8} hint="At least 8 characters." />
        <ErrorMessage error={reset.error} />
        <div class="actions">
          <button type="submit" disabled={reset.busy}>
            Set new password
          </button>
        </div>
      </form>
      {reset.error ? (
        <p>
          Link no longer valid? <a href="/forgot-password">Ask for a new one</a>.
        </p>
      ) : null}
    </section>
  );
}
