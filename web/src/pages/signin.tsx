import { useLocation } from 'preact-iso';
import { useState } from 'preact/hooks';
import { api } from '../api/client.js';
import { safeNext } from '../components/accounts/safe-next.js';
import { OAuthButtons, useSignInMethods } from '../components/accounts/sign-in-methods.js';
import { WalletSignIn } from '../components/accounts/wallet-sign-in.js';
import { ErrorMessage } from '../components/error-message.js';
import { Field } from '../components/field.js';
import { useAction } from '../components/use-async.js';
import { useSession } from '../session.js';
import '../styles/accounts.css';

/** /signin (?next=/path): e-mail and password, or a wallet; then `next` (same site only) or /agents. */
export function SignInPage() {
  const { query, route } = useLocation();
  const { user, refresh } = useSession();
  const next = safeNext(query.next);
  const methods = useSignInMethods();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const done = async () => {
    await refresh();
    route(next);
  };
  const signIn = useAction(async () => {
    await api.post('/api/auth/callback/credentials', { email: email.trim(), password });
    await done();
  });
  return (
    <section class="auth-page">
      <h1>Sign in</h1>
      {user ? (
        <p>
          You are signed in as {user.email}. <a href={next}>Continue</a>
        </p>
      ) : null}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void signIn.act();
        }}
      >
        <Field label="Email" type="email" value={email} onValue={setEmail} autocomplete="username" required autoFocus />
        <Field label="Password" type="password" value={password} onValue={setPassword} autocomplete="current-password" required />
        <ErrorMessage error={signIn.error} />
        <div class="actions">
          <button type="submit" disabled={signIn.busy}>
            Sign in
          </button>
        </div>
      </form>
      <p>
        <a href="/forgot-password">Forgot your password?</a>
      </p>
      <OAuthButtons methods={methods.data} />
      <WalletSignIn onSignedIn={done} />
      <p>
        New here? <a href="/signup">Create an account</a>
      </p>
    </section>
  );
}
