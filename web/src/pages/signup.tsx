import { useLocation } from 'preact-iso';
import { useState } from 'preact/hooks';
import { useSignInMethods } from '../components/accounts/sign-in-methods.js';
import { api } from '../api/client.js';
import { ErrorMessage, Notice } from '../components/error-message.js';
import { Field } from '../components/field.js';
import { useAction } from '../components/use-async.js';
import '../styles/accounts.css';

/** /signup (?ref=CODE): POST /api/register, then "check your e-mail" with a way to get the link again. */
export function SignUpPage() {
  const { query } = useLocation();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [referralCode, setReferralCode] = useState(query.ref ?? '');
  const [sentTo, setSentTo] = useState<string | undefined>(undefined);
  const register = useAction(async () => {
    const body: Record<string, string> = { email: email.trim(), password };
    if (name.trim()) body.name = name.trim();
    if (referralCode.trim()) body.referralCode = referralCode.trim();
    await api.post('/api/register', body);
    setSentTo(email.trim());
  });

  if (sentTo) return <CheckYourMail email={sentTo} />;
  return (
    <section class="auth-page">
      <h1>Create your account</h1>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void register.act();
        }}
      >
        <Field label="Name" value={name} onValue={setName} autocomplete="name" maxLength={100} hint="Optional: we use your e-mail address if you leave it empty." />
        <Field label="Email" type="email" value={email} onValue={setEmail} autocomplete="email" required autoFocus />
        <Field label="Password" type="password" value={password} onValue={setPassword} autocomplete="new-password" required minLength={8} hint="At least 8 characters." />
        <Field
          label="Referral code (optional)"
          value={referralCode}
          onValue={setReferralCode}
          maxLength={20}
          hint="If someone invited you: you both get credits."
        />
        <ErrorMessage error={register.error} />
        <div class="actions">
          <button type="submit" disabled={register.busy}>
            Create account
          </button>
        </div>
      </form>
      <p>
        Already have an account? <a href="/signin">Sign in</a>
      </p>
    </section>
  );
}

function CheckYourMail({ email }: { email: string }) {
  const [resent, setResent] = useState<string | undefined>(undefined);
  const resend = useAction(async () => {
    const r = await api.post<{ message: string }>('/api/auth/resend-verification', { email });
    setResent(r.message);
  });
  return (
    <section class="auth-page">
      <h1>Check your e-mail</h1>
      <p>
        We sent a link to <strong>{email}</strong>. Open it to verify your address, then sign in.
      </p>
      <MailHint />
      <ErrorMessage error={resend.error} />
      {resent ? <Notice>{resent}</Notice> : null}
      <div class="actions">
        <button type="button" class="secondary" disabled={resend.busy} onClick={() => void resend.act()}>
          Send the link again
        </button>
        <a class="button" href="/signin">
          Sign in
        </a>
      </div>
    </section>
  );
}

/** Where the link went: a local service without a mail relay writes it to its own log, where no spam folder is. */
function MailHint() {
  const methods = useSignInMethods();
  if (methods.data?.emailDelivery === 'log') {
    return <p class="muted">This service runs locally without a mail relay: the link was written to the service's log. Copy it from there.</p>;
  }
  if (methods.data?.emailDelivery === 'none') return <p class="muted">This service has no mail relay configured: ask its operator for your link.</p>;
  return <p class="muted">No mail after a few minutes? Look in your spam folder, or ask for the link again.</p>;
}
