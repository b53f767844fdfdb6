import { useState } from 'preact/hooks';
import { api } from '../api/client.js';
import { ErrorMessage, Notice } from '../components/error-message.js';
import { Field } from '../components/field.js';
import { useAction } from '../components/use-async.js';
import '../styles/accounts.css';

/** /forgot-password: asks for a reset link. The answer is the same whether the account exists. */
export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<string | undefined>(undefined);
  const send = useAction(async () => {
    const r = await api.post<{ message: string }>('/api/auth/forgot-password', { email: email.trim() });
    setSent(r.message);
  });
  return (
    <section class="auth-page">
      <h1>Forgot your password?</h1>
      <p>Give us the e-mail address of your account and we will send you a link to choose a new password.</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void send.act();
        }}
      >
        <Field label="Email" type="email" value={email} onValue={setEmail} autocomplete="email" required />
        <ErrorMessage error={send.error} />
        {sent ? <Notice>{sent} The link works for a limited time.</Notice> : null}
        <div class="actions">
          <button type="submit" disabled={send.busy}>
            Send reset link
          </button>
        </div>
      </form>
      <p>
        Remembered it? <a href="/signin">Sign in</a>
      </p>
    </section>
  );
}
